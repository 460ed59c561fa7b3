import { Writable } from 'node:stream';
import { secretEnvValues } from '../../config/redact.js';
import { Redactor } from '../../config/redactor.js';
import type { CommandIO } from '../commands/cli-io.js';

/**
 * `io` with its stderr scrubbed of the environment's secret values (docs/security.md): an error
 * may quote a file a scenario names (`delta: ./token.txt`), and that file may hold one of the
 * run's keys. Reports and spans are scrubbed with the run's whole redactor; this covers what is
 * said before the builds are known, and every other line.
 */
export function withScrubbedStderr(io: CommandIO): CommandIO {
  const secrets = secretEnvValues(io.env);
  if (!secrets.length) return io;
  const redactor = new Redactor().add(secrets);
  const target = io.stderr;
  const stderr = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      // Passed on at once, so stderr keeps its order with the process's own writes.
      target.write(redactor.text(typeof chunk === 'string' ? chunk : chunk.toString('utf8')));
      done();
    },
  });
  return { ...io, stderr };
}
