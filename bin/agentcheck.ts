#!/usr/bin/env node
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
// goes on to write its reports and exit with its own code (no EPIPE stack trace).
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
  });
}

// The entry stays tiny: commands load their modules lazily so `--help` starts fast.
main(process.argv).then((code) => {
  process.exitCode = code;
});
