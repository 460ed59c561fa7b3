import { describe, expect, it } from 'vitest';
import { envHeaderSecrets, isSecretHeaderName, isSecretName, redactSecrets, secretEnvValues, secretHeaderValues } from '../../src/config/redact.js';
import { Redactor, scrubCredentialShapes } from '../../src/config/redactor.js';

describe('isSecretName', () => {
  it('knows secrets by their words', () => {
    for (const name of [
      'OPENAI_API_KEY',
      'api_key',
      'apiKey',
      'x-api-key',
      'Authorization',
      'GITHUB_TOKEN',
      'accessToken',
      'x-auth-token',
      'client_secret',
      'password',
      'Cookie',
      'private_key',
      'AWS_SECRET_ACCESS_KEY',
    ]) {
      expect(isSecretName(name), name).toBe(true);
    }
  });

  it('leaves model parameters and ordinary names alone', () => {
    for (const name of ['max_tokens', 'maxTokens', 'max_completion_tokens', 'temperature', 'tokenizer', 'keyword', 'monkey', 'top_p']) {
      expect(isSecretName(name), name).toBe(false);
    }
  });

  it('redacts deeply but keeps max_tokens visible', () => {
    expect(redactSecrets({ temperature: 0, max_tokens: 1024, api_key: 'sk-1', nested: { Authorization: 'Bearer x' } })).toEqual({
      temperature: 0,
      max_tokens: 1024,
      api_key: '[redacted]',
      nested: { Authorization: '[redacted]' },
    });
  });
});

describe('credential headers, query parameters and the redactor', () => {
  it('knows vendor key headers', () => {
    for (const name of ['X-Auth-Key', 'Ocp-Apim-Subscription-Key', 'x-functions-key', 'x-api-key', 'Proxy-Authorization']) {
      expect(isSecretHeaderName(name), name).toBe(true);
    }
    expect(
      secretHeaderValues({
        'X-Auth-Key': 'xak-12345678',
        'Ocp-Apim-Subscription-Key': 'apim-12345678',
        'x-functions-key': 'fn-12345678',
        Accept: 'application/json',
      }),
    ).toEqual(['xak-12345678', 'apim-12345678', 'fn-12345678']);
  });

  it('fills {{ env.NAME }} in headers from the variables set, never from a name the environment only inherits', () => {
    const env = { PLAIN_NAME: 'ghp-0123456789abcdef' };
    expect(envHeaderSecrets({ Authorization: 'Bearer {{ env.PLAIN_NAME }}', 'X-Team': '{{ env.PLAIN_NAME }}' }, env)).toEqual([
      'Bearer ghp-0123456789abcdef',
      'ghp-0123456789abcdef',
    ]);
    // `constructor` is no variable of a copied environment: nothing is filled in, so nothing is a secret.
    expect(envHeaderSecrets({ Authorization: 'Bearer {{ env.constructor }}' }, env)).toEqual([]);
  });

  it('scrubs credential query values and URL passwords by shape, leaving the rest', () => {
    expect(scrubCredentialShapes('GET https://a.test/x?api_key=abc&access_token=t0k&page=2&code=zz')).toBe(
      'GET https://a.test/x?api_key=[redacted]&access_token=[redacted]&page=2&code=[redacted]',
    );
    expect(scrubCredentialShapes('see http://user:hunter2@db.test:5432/x and https://host:8080/a@b')).toBe(
      'see http://user:[redacted]@db.test:5432/x and https://host:8080/a@b',
    );
  });

  it('keeps the punctuation and text after a redacted query value', () => {
    for (const [text, scrubbed] of [
      ['see (https://x/y?token=SECRET)', 'see (https://x/y?token=[redacted])'],
      ['see (https://x/y?token=SECRET). Then retry', 'see (https://x/y?token=[redacted]). Then retry'],
      ['[docs](https://x/y?a=1&api_key=SECRET), or', '[docs](https://x/y?a=1&api_key=[redacted]), or'],
      ['{url: https://x/y?sig=SECRET}; next', '{url: https://x/y?sig=[redacted]}; next'],
      ['is it https://x/y?token=SECRET?', 'is it https://x/y?token=[redacted]?'],
      ['**https://x/y?token=SECRET**: done!', '**https://x/y?token=[redacted]**: done!'],
      // Inside a value, brackets and dots stay part of what is redacted.
      ['https://x/y?token=ab.c)d&page=2', 'https://x/y?token=[redacted]&page=2'],
      // A value that is punctuation only is nothing to hide.
      ['write ?token=... here', 'write ?token=... here'],
    ]) {
      expect(scrubCredentialShapes(text), text).toBe(scrubbed);
    }
    // A known secret scrubbed first keeps what follows it too.
    const redactor = new Redactor().add(['SECRET-value-1234']);
    expect(redactor.text('see (https://x/y?token=SECRET-value-1234) and more')).toBe('see (https://x/y?token=[redacted]) and more');
    expect(redactor.text('https://x/y?token=SECRET-value-1234XYZ).')).toBe('https://x/y?token=[redacted]).');
  });

  it('scrubs known values in their raw, URL-encoded and JSON-escaped forms, deeply', () => {
    const redactor = new Redactor().add(['sk-a/b"c-123456', 'short']);
    expect(redactor.value({ out: 'key sk-a/b"c-123456', url: 'x?q=sk-a%2Fb%22c-123456', json: '{"k":"sk-a/b\\"c-123456"}', keep: 'short', n: 3 })).toEqual({
      out: 'key [redacted]',
      url: 'x?q=[redacted]',
      json: '{"k":"[redacted]"}',
      keep: 'short',
      n: 3,
    });
  });

  it('scrubs the URL spellings that decode to a secret: lower-case escapes and form encoding', () => {
    const redactor = new Redactor().add(['Xy9+kL/mn=Qr 7&zz']);
    expect(redactor.text('upper: Xy9%2BkL%2Fmn%3DQr%207%26zz')).toBe('upper: [redacted]');
    expect(redactor.text('lower: Xy9%2bkL%2fmn%3dQr%207%26zz')).toBe('lower: [redacted]');
    expect(redactor.text('plus: Xy9%2BkL%2Fmn%3DQr+7%26zz')).toBe('plus: [redacted]');
    expect(redactor.text('both: Xy9%2bkL%2fmn%3dQr+7%26zz')).toBe('both: [redacted]');
  });

  it('scrubs a secret escaped twice: a tool result JSON inside the JSON of a span message', () => {
    const secret = 'pa"ss\\word-12345678';
    const redactor = new Redactor().add([secret]);
    const inner = JSON.stringify({ stdout: `out:${secret}` });
    const messages = JSON.stringify([{ role: 'tool', content: inner }]);
    expect(messages).not.toContain(JSON.stringify(secret).slice(1, -1));
    expect(redactor.text(messages)).toBe(JSON.stringify([{ role: 'tool', content: JSON.stringify({ stdout: 'out:[redacted]' }) }]));
  });

  it('scrubs a secret escaped three and four times: JSON a command prints, in the tool result JSON, in a span message JSON, and one more', () => {
    const secret = 'pa"ss\\word-12345678';
    const redactor = new Redactor().add([secret]);
    const printed = JSON.stringify({ pw: secret });
    const result = JSON.stringify({ exit_code: 0, stdout: printed });
    const messages = JSON.stringify([{ role: 'tool', content: result }]);
    const clean = JSON.stringify([{ role: 'tool', content: JSON.stringify({ exit_code: 0, stdout: JSON.stringify({ pw: '[redacted]' }) }) }]);
    expect(redactor.text(messages)).toBe(clean);
    expect(redactor.text(JSON.stringify({ messages }))).toBe(JSON.stringify({ messages: clean }));
  });

  it("scrubs the start of a secret that a span value's [truncated N characters] cut short", () => {
    const redactor = new Redactor().add(['sk-live-ABCDEFGHIJKLMNOP']);
    expect(redactor.text('xxxx sk-live-A[truncated 150029 characters]')).toBe('xxxx [redacted][truncated 150029 characters]');
    expect(redactor.text('{"stdout":"ok sk-live-ABCDEFG[truncated 12 bytes]"}')).toBe('{"stdout":"ok [redacted][truncated 12 bytes]"}');
    // A command's output cut puts a line break before its marker: as it is, and escaped in JSON once and twice.
    expect(redactor.text('ok sk-live-ABCDEFG\n[truncated 12 bytes]')).toBe('ok [redacted]\n[truncated 12 bytes]');
    const result = JSON.stringify({ stdout: 'ok sk-live-ABCDEFG\n[truncated 12 bytes]' });
    expect(redactor.text(result)).toBe(JSON.stringify({ stdout: 'ok [redacted]\n[truncated 12 bytes]' }));
    expect(redactor.text(JSON.stringify([{ content: result }]))).toBe(
      JSON.stringify([{ content: JSON.stringify({ stdout: 'ok [redacted]\n[truncated 12 bytes]' }) }]),
    );
    // A key that starts a line: its line break is written out as \n in JSON, no word before the key.
    const line = JSON.stringify({ stdout: 'xxx\nsk-live-ABCDEFG\n[truncated 313 bytes]' });
    expect(redactor.text(line)).toBe(JSON.stringify({ stdout: 'xxx\n[redacted]\n[truncated 313 bytes]' }));
    expect(redactor.text(JSON.stringify({ tab: 'a\tsk-live-ABCDEFGHI[truncated 3 characters]' }))).toBe(
      JSON.stringify({ tab: 'a\t[redacted][truncated 3 characters]' }),
    );
    // A start too short to be told from text stays, as at "...".
    expect(redactor.text('sk-live[truncated 3 characters]')).toBe('sk-live[truncated 3 characters]');
  });

  it('scrubs the start of a secret a quote cut short at "...", \u2026 or a JSON quote\'s "...', () => {
    const redactor = new Redactor().add(['ghp_abcdefghijklmnopqrstuvwxyz0123456789']);
    expect(redactor.text('output was "it is ghp_abcdefghijklmnop...')).toBe('output was "it is [redacted]...');
    expect(redactor.text('"it is ghp_abcd"... (20 more characters)')).toBe('"it is [redacted]"... (20 more characters)');
    expect(redactor.text('it is ghp_abcdefg\u2026 and ghp_abcdefghijklmnopqrstuvwxyz0123456789')).toBe('it is [redacted]\u2026 and [redacted]');
    // Text before a cut that is not the start of a secret, or too short a start, stays.
    expect(redactor.text('Loading... ghp... gh...')).toBe('Loading... ghp... gh...');
    // Ordinary words: a start shorter than the shortest secret (8), or inside a word, is not taken for one.
    const words = new Redactor().add(['passw0rd-2024-xyz', '2024-11-27-token-value']);
    expect(words.text('the compass\u2026 in 2024... then passw0r...')).toBe('the compass\u2026 in 2024... then passw0r...');
    expect(words.text('key: passw0rd-20...; date 2024-11-27...')).toBe('key: [redacted]...; date [redacted]...');
    expect(words.text('xpassw0rd-20...')).toBe('xpassw0rd-20...');
  });

  it('copies only what holds a secret: clean parts are shared, the input is never changed', () => {
    const redactor = new Redactor().add(['sk-live-0123456789']);
    const clean = { name: 'lookup', args: { id: 7 }, tags: ['a', 'b'] };
    const dirty = { name: 'call', args: { auth: 'Bearer sk-live-0123456789' }, tags: ['x', 'sk-live-0123456789'] };
    const input = { clean, dirty, list: [clean, dirty], [`k-sk-live-0123456789`]: 1 };
    const before = JSON.stringify(input);
    const out = redactor.value(input);
    expect(JSON.stringify(input)).toBe(before);
    expect(out).not.toBe(input);
    expect(out.clean).toBe(clean);
    expect(out.list[0]).toBe(clean);
    expect(out.dirty).toEqual({ name: 'call', args: { auth: 'Bearer [redacted]' }, tags: ['x', '[redacted]'] });
    expect(out.dirty).not.toBe(dirty);
    expect(Object.keys(out)).toEqual(['clean', 'dirty', 'list', 'k-[redacted]']);
    expect(redactor.value(clean)).toBe(clean);
    expect(redactor.value('no secret here')).toBe('no secret here');
  });

  it('reads the secret variables of an environment, `*_KEY` included', () => {
    expect(secretEnvValues({ OPENAI_API_KEY: 'sk-12345678', AZURE_OPENAI_KEY: 'az-12345678', HOME: '/home/someone-long', GITHUB_TOKEN: 'short' })).toEqual([
      'sk-12345678',
      'az-12345678',
    ]);
  });
});
