import { describe, expect, it } from 'vitest';
import { ConfigError, ConfigErrors } from '../../src/config/errors.js';

const prefix = 'new ConfigError(location, expected, code?): expected';

describe('ConfigError built by a library caller', () => {
  it('reads its location and expected text', () => {
    const error = new ConfigError({ file: 'checks.yaml', line: 3, column: 5, path: 'filtering.field' }, 'unknown field "nme"', 'QUERY_INVALID');
    expect(error).toMatchObject({ message: 'checks.yaml:3:5 at filtering.field: unknown field "nme"', code: 'QUERY_INVALID', file: 'checks.yaml', line: 3 });
    expect(new ConfigError({ file: 'c.yaml' }, 'bad').message).toBe('c.yaml: bad');
  });

  it('refuses wrong arguments with a TypeError saying what each must be, never a message reading `undefined: ...`', () => {
    expect(() => new ConfigError('c.yaml' as never, 'bad')).toThrow(
      new TypeError(`${prefix} a location {file, line?, column?, path?} as location, got string "c.yaml"`),
    );
    expect(() => new ConfigError(undefined as never, 'bad')).toThrow(
      new TypeError(`${prefix} a location {file, line?, column?, path?} as location, got nothing`),
    );
    expect(() => new ConfigError({ file: 'x' }, undefined as never)).toThrow(
      new TypeError(`${prefix} the text of the problem (a string) as expected, got nothing`),
    );
    expect(() => new ConfigError({ file: 5 } as never, 'bad')).toThrow(new TypeError(`${prefix} the file (a string) as location.file, got number 5`));
    expect(() => new ConfigError({ file: 'x', line: '3' } as never, 'bad')).toThrow(TypeError);
    expect(() => new ConfigError({ file: 'x', path: ['a'] } as never, 'bad')).toThrow(TypeError);
    expect(() => new ConfigError({ file: 'x' }, 'bad', 5 as never)).toThrow(new TypeError(`${prefix} an error code (a string) as code, got number 5`));
  });

  it('ConfigErrors refuses a list that holds no ConfigError', () => {
    const one = new ConfigError({ file: 'a.yaml' }, 'bad');
    expect(new ConfigErrors([one, new ConfigError({ file: 'b.yaml' }, 'worse')]).errors).toHaveLength(2);
    expect(() => new ConfigErrors([])).toThrow(new TypeError('new ConfigErrors(errors): expected a non-empty list of ConfigErrors, got an array'));
    expect(() => new ConfigErrors([new Error('x')] as never)).toThrow(TypeError);
    expect(() => new ConfigErrors(undefined as never)).toThrow('expected a non-empty list of ConfigErrors, got nothing');
  });
});
