import { describe, expect, it } from 'vitest';
import { RunError } from '../../../src/config/errors.js';
import { lookupIn } from '../../../src/engine/template/interpolate.js';
import { dotSegment, interpolateUrl } from '../../../src/engine/template/url-template.js';

const fill = (url: string, args: Record<string, unknown>) => interpolateUrl(url, lookupIn({ args }), 'test');

function refusal(url: string, args: Record<string, unknown>): RunError {
  try {
    fill(url, args);
  } catch (error) {
    return error as RunError;
  }
  throw new Error(`expected ${url} to be refused`);
}

describe('URL templates', () => {
  it('encodes an embedded value whole, "/" included', () => {
    expect(fill('https://api.test/repos/{{ args.repo }}/issues?q={{ args.q }}', { repo: 'octo/hello', q: 'a b&c=d' })).toBe(
      'https://api.test/repos/octo%2Fhello/issues?q=a%20b%26c%3Dd',
    );
  });

  it('keeps "/" with | path and still encodes every other reserved character of each segment', () => {
    expect(fill('https://api.test/repos/{{ args.repo | path }}/issues', { repo: 'octo/hello-world' })).toBe('https://api.test/repos/octo/hello-world/issues');
    expect(fill('https://api.test/files/{{args.p|path}}', { p: 'a b/c?d#e&f=g/%2F' })).toBe('https://api.test/files/a%20b/c%3Fd%23e%26f%3Dg/%252F');
    expect(fill('https://api.test/n/{{ args.n | path }}', { n: 42 })).toBe('https://api.test/n/42');
  });

  it('a whole-string template is the value itself', () => {
    expect(fill('{{ args.url }}', { url: 'https://api.test/a b' })).toBe('https://api.test/a b');
  });

  it('refuses a value that puts a "." or ".." segment into the path, with | path and without', () => {
    for (const [url, args] of [
      ['https://api.test/repos/{{ args.repo | path }}/issues', { repo: 'octo/../../admin' }],
      ['https://api.test/repos/{{ args.repo | path }}', { repo: './x' }],
      ['https://api.test/orders/{{ args.id }}', { id: '..' }],
      ['https://api.test/orders/{{ args.id }}/items', { id: '.' }],
    ] as const) {
      const error = refusal(url, args);
      expect(error).toBeInstanceOf(RunError);
      expect(error.code).toBe('PATH_TRAVERSAL');
      expect(error.message).toContain('path segment after templating');
    }
  });

  it('leaves dots that are no whole segment, dots in the query, and an encoded "%2e" escape alone', () => {
    expect(fill('https://api.test/f/{{ args.name | path }}', { name: 'v1..2/.env' })).toBe('https://api.test/f/v1..2/.env');
    expect(fill('https://api.test/f?up={{ args.up }}', { up: '..' })).toBe('https://api.test/f?up=..');
    // "%" is encoded, so a value cannot smuggle in "%2e%2e" either.
    expect(fill('https://api.test/f/{{ args.p | path }}', { p: '%2e%2e/x' })).toBe('https://api.test/f/%252e%252e/x');
  });

  it('checks a URL whose templates formed all of it, or its scheme or host, like any other', () => {
    for (const [url, args] of [
      ['{{ args.target }}', { target: 'https://api.test/a/../admin' }],
      ['{{ args.target }}', { target: 'https://api.test/a/%2e%2E/admin' }],
      // The URL parser reads "\\" as "/" and drops tabs and newlines: "a\\.\t.\\admin" is "a/../admin".
      ['{{ args.target }}', { target: 'https://api.test/a\\.\t.\\admin' }],
      ['{{ args.target }}', { target: 'https:api.test/../admin' }],
      ['{{ args.scheme }}://api.test/x/../admin', { scheme: 'https' }],
    ] as const) {
      const error = refusal(url, args);
      expect(error.code, JSON.stringify(args)).toBe('PATH_TRAVERSAL');
    }
    expect(fill('{{ args.target }}', { target: 'https://api.test/v1..2/x?up=..' })).toBe('https://api.test/v1..2/x?up=..');
    expect(fill('{{ args.scheme }}://api.test/x', { scheme: 'http' })).toBe('http://api.test/x');
  });

  it('refuses a filled URL that is not an absolute http(s) URL (INVALID_URL), never returning it', () => {
    for (const [url, args, says] of [
      ['{{ args.target }}', { target: 'file:///etc/passwd' }, 'has the scheme "file" after templating'],
      ['{{ args.target }}', { target: 'javascript:alert(1)' }, 'has the scheme "javascript" after templating'],
      ['{{ args.target }}', { target: 'not a url' }, 'is not a valid URL after templating'],
      ['{{ args.target }}', { target: 42 }, 'is not a valid URL after templating'],
      ['{{ args.scheme }}://x.test/etc', { scheme: 'ftp' }, 'has the scheme "ftp" after templating'],
      // An embedded value is encoded, so a base URL cannot be spliced in ahead of a path.
      ['{{ args.base }}/items', { base: 'https://api.test' }, 'is not a valid URL after templating'],
      ['https://{{ args.host }}/items', { host: 'api.test/x' }, 'is not a valid URL after templating'],
    ] as const) {
      const error = refusal(url, args);
      expect(error).toBeInstanceOf(RunError);
      expect(error.code, JSON.stringify(args)).toBe('INVALID_URL');
      expect(error.message).toContain(says);
      expect(error.message).toContain('at test');
    }
    const withPassword = refusal('{{ args.target }}', { target: 'ftp://ada:pw-hunter22@files.test/x' });
    expect(withPassword.message).toContain('"ftp://ada:[redacted]@files.test/x"');
  });

  it('dotSegment finds ".", ".." and their %2e spellings in the path only', () => {
    expect(dotSegment('https://a.test/x/%2E%2e/y')).toBe('%2E%2e');
    expect(dotSegment('https://a.test/x/.')).toBe('.');
    expect(dotSegment('https://a.test/x?y=/../')).toBeUndefined();
    expect(dotSegment('https://a.test/x#/../')).toBeUndefined();
  });
});
