import { watchStdioErrors } from '../src/config/stdio-errors.js';
import { main } from '../src/runner/commands/main.js';
import { hideInitialEnvironSecrets } from '../src/runner/secrets/hide-initial-environ.js';

// Before anything runs: the commands an agent starts must not read this process's keys from
// /proc/<pid>/environ (docs/security.md).
const hiding = hideInitialEnvironSecrets();
if (hiding.problem) {
  process.stderr.write(
    `agentcheck: warning: could not hide secret variables from /proc/${process.pid}/environ (${hiding.problem}); commands the agent runs may read them\n`,
  );
}

// `agentcheck ... | head` closes the pipe early: what is left to print is dropped, while the run
// goes on to write its reports and exit with its own code (no EPIPE stack trace). Any other
// failure to print (`> /dev/full`) is said and fails the command.
const output = watchStdioErrors();

// A command whose work never settles (a custom check module awaiting something that never comes)
// leaves Node's event loop empty: Node would exit 0 with no report. It is said, and fails.
let finished = false;
process.on('exit', () => {
  if (finished) return;
  process.stderr.write(
    'agentcheck: the command stopped before it finished: something it awaited can never settle (a custom check module whose import or function waits on nothing that can happen?); exit 1\n',
  );
  process.exitCode = 1;
});

/**
 * Ends the process once stdout and stderr are out, without waiting for what user code left pending
 * (docs/custom-checks.md): a custom check's timer would hold the process, then throw with Node's
 * own stack trace over reports that say PASSED, and an interval would never let it end. vitest
 * ends its workers the same way, timers and all.
 */
function endOnceFlushed(): void {
  // The command caught such errors until it returned and said them; one thrown in these last
  // moments is said here in agentcheck's words, without its text (no redactor has seen it).
  const late = () => {
    process.stderr.write(
      "agentcheck: an error no code awaited was thrown as agentcheck ended (a custom check's timer or unawaited promise?), so the command fails; exit 1\n",
    );
    process.exitCode = 1;
  };
  process.on('uncaughtException', late);
  process.on('unhandledRejection', late);
  const exit = (error: Error | null | undefined) => {
    output.settle(error);
    process.stderr.write('', () => process.exit());
  };
  // Only what is still buffered needs the flush: a zero-length write is a write(2) of its own,
  // which /dev/full refuses though nothing is lost (stdout to a file is written at once).
  if (process.stdout.writableLength === 0) exit(process.stdout.errored);
  else process.stdout.write('', exit);
}

// The entry stays tiny: commands load their modules lazily so `--help` starts fast.
main(process.argv).then(
  (code) => {
    finished = true;
    process.exitCode = code === 0 && output.failed() ? 1 : code;
    endOnceFlushed();
  },
  (error: unknown) => {
    finished = true;
    throw error;
  },
);
