import { helpRequest } from './help-request.js';
import { Command, CommanderError, Option } from 'commander';
import { setHeapGrowingPercent } from '../../config/v8-flags.js';
import { VERSION } from '../../config/version.js';
import { REPORTER_NAMES } from '../reporters/index.js';
import { DEFAULT_TEST_RUN_TIMEOUT_MS } from '../suite/timeouts.js';
import { EXIT, processIO, reportError, type CommandIO } from './cli-io.js';
import { withCommandFreeStderr } from '../ci/workflow-command-text.js';
import { withScrubbedStderr } from '../secrets/scrubbed-stderr.js';
import { spreadNameLists } from './name-lists.js';
import { refuseRepeatedValues } from './single-value-options.js';
import { refuseStrayArguments } from './stray-arguments.js';
import {
  appendList,
  collectFolders,
  collectList,
  collectTokens,
  nonEmpty,
  pathArgument,
  pathArguments,
  positiveInt,
  shardSpec,
  timeoutMs,
  wholeNumber,
} from './option-values.js';

/** How much V8 grows the heap at a time during `agentcheck run`, in percent (V8's own choice is 10-300). */
const RUN_HEAP_GROWING_PERCENT = 30;

const RUN_EXAMPLES = `
Examples:
  $ agentcheck run scenarios/
  $ agentcheck run scenarios/ --reporter table,json,junit --out reports/
  $ agentcheck run --config agentcheck.config.yaml --variant base lean \\
      --repeat 5
  $ agentcheck run scenarios/ --shard 2/4 --reporter json --out reports/shard-2
  $ agentcheck run scenarios/ --grep 'refund|cancel' --quiet
  $ agentcheck run scenarios/ --only-failed reports/report.json`;

const TEST_RUN_EXAMPLES = `
Examples:
  $ agentcheck test-run --agent fixtures/agents/support-bot.yaml \\
      --message "Refund order 1234, it arrived broken." \\
      --script fixtures/test-run/refund-script.yaml \\
      --mocks fixtures/test-run/refund-mocks.yaml --terminal-tool create_refund
  $ agentcheck test-run --agent agent.yaml --inputs inputs.yaml \\
      --delta delta.yaml --spans out/spans.jsonl --timeout 30000`;

const RESUME_EXAMPLES = `
Examples:
  $ agentcheck test-run --agent agent.yaml --message "Write the changelog" \\
      --script script.yaml --spans out/spans.jsonl --json
      (prints "run_id": "4bf92f35..." and stop_reason "paused")
  $ agentcheck resume 4bf92f35... --decision approve --spans out/spans.jsonl \\
      --json`;

/** Parses argv and runs the command; resolves to the exit code (docs/cli.md). */
export async function main(argv: readonly string[], given: CommandIO = processIO()): Promise<number> {
  // One place for every stderr line: on GitHub Actions none of them may start a workflow command.
  const io = withCommandFreeStderr(withScrubbedStderr(given));
  let exitCode: number = EXIT.ok;
  // argv as parsed (node, the script, the command, then its words), for messages that quote it.
  let commandLine: string[] = [];
  const program = new Command('agentcheck')
    .description('Test harness for agent builds: run scenarios headlessly, verify tool use from OpenTelemetry spans.')
    .version(VERSION)
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    .exitOverride()
    // One hint, not 40 lines of help burying the one-line error.
    .showHelpAfterError('(add --help to the command for its usage)');

  program
    .command('run')
    .description('run scenario files (*.scenario.yaml, *.scenarios.yaml) and write reports')
    .argument('[paths...]', "scenario files or folders (default: the config's scenarios, else the current folder)", pathArguments('a scenario file or folder'))
    .option(
      '--config <file>',
      'suite config (default: the agentcheck.config.yaml of a single folder argument that has one, else of the current folder)',
      nonEmpty,
    )
    .option('--variant <name>', 'run only these variants: --variant base lean, a comma list or the flag repeated (base is the unchanged revision)', collectList)
    .option('--repeat <n>', "run each scenario n times (default: the config's repeat, else 1)", positiveInt)
    .option('--max-runs <n>', 'the most runs (scenarios x variants x repeats) a suite may plan (default 1000000)', positiveInt)
    .option('--concurrency <n>', "scenarios run at once (default: the config's concurrency, else 8)", positiveInt)
    .option(
      '--grep <text>',
      'only scenarios whose id or name contains this text or matches it as a regular expression (case-insensitive); given once',
      nonEmpty,
    )
    .option(
      '--only-failed <report>',
      'rerun only the scenario x variant pairs that failed or errored in this report.json, or that an interrupt left not_run',
      nonEmpty,
    )
    .option('--tag <tag>', 'only scenarios with one of these tags: --tag smoke refunds, a comma list or the flag repeated', collectList)
    .option(
      '--reporter <list>',
      `comma list of ${REPORTER_NAMES.join(', ')}; repeat the flag to add more (default: the config's reporters, else table,json)`,
      appendList,
    )
    .option('--quiet', 'terminal output: failures and the summary only (no table, no progress)')
    .option('--out <dir>', "output folder for reports and spans.jsonl (default: the config's out, else reports)", nonEmpty)
    .option('--shard <i/n>', 'run shard i of n (1-based), e.g. 2/4', shardSpec)
    .option(
      '--timeout <ms>',
      "per-scenario time limit in ms, at most 2147483647 (default: the config's timeout_ms, else 60000; a scenario's timeout_ms wins)",
      timeoutMs,
    )
    .option('--overlay <folder>', "a skill folder delivered after the revision's own; a comma list or the flag repeated for several", collectFolders)
    .option(
      '--otlp <url>',
      'also export spans over OTLP/HTTP (JSON, or protobuf per OTEL_EXPORTER_OTLP_PROTOCOL) to this endpoint, e.g. http://localhost:4318 (default: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT)',
      nonEmpty,
    )
    .addOption(
      new Option(
        '--cassettes <mode>',
        "record or replay model and http calls as cassettes (docs/cassettes.md; default: the config's cassettes.mode, else off)",
      ).choices(['record', 'replay', 'auto', 'off']),
    )
    .addHelpText('after', RUN_EXAMPLES)
    .action(async (paths: string[], options) => {
      // V8 sizes each heap step from its GC speed, up to 4x what a long suite holds; steps of
      // RUN_HEAP_GROWING_PERCENT keep peak RSS near the live set for a little more GC time
      // (docs/report-format.md, "Rows waiting on disk"). Process-wide, so only for `run`.
      setHeapGrowingPercent(RUN_HEAP_GROWING_PERCENT);
      const { runCommand } = await import('./run-command.js');
      exitCode = await runCommand(paths, options, io);
    });

  program
    .command('test-run')
    .description('apply a delta in memory, invoke the agent once, and print the test_run verdict')
    .requiredOption('--agent <file>', 'agent build (YAML or JSON)', nonEmpty)
    .option('--message <text>', 'the user message')
    .option('--inputs <file>', 'inputs file: {messages: [...], context: {...}}', nonEmpty)
    .option('--delta <file>', 'delta file {set, remove}, applied in memory and never saved', nonEmpty)
    .option('--terminal-tool <name>', 'the tool whose successful call completes the job (/regex/ allowed)')
    .option(
      '--error-token <text>',
      "text in a tool result that means the call failed; repeat the flag for several (replaces the default list, as a scenario's expect.error_tokens)",
      collectTokens,
    )
    .option('--script <file>', "scripted model: a YAML/JSON list in the format of a scenario's model.script", nonEmpty)
    .option('--mocks <file>', "HTTP mocks: a YAML/JSON file in the format of a scenario's mocks ({http: [...]})", nonEmpty)
    .option('--approvals <file>', "answers to gated calls: a YAML/JSON file in the format of a scenario's approvals ({default, tools})", nonEmpty)
    .option('--workspace <dir>', 'folder copied to a fresh temp workspace for the run (default: an empty temp folder)', nonEmpty)
    .option(
      '--spans <file>',
      "write the run's spans as JSONL (query them with agentcheck spans query FILE --trace ID); a paused run's checkpoint goes to the same folder",
      nonEmpty,
    )
    .option('--timeout <ms>', `wall-clock cap of the run in ms (default ${DEFAULT_TEST_RUN_TIMEOUT_MS}); past it the verdict is failed`, timeoutMs)
    .option('--json', 'print only the TestRunResult JSON on stdout (with run_id when the run paused)')
    .addHelpText('after', TEST_RUN_EXAMPLES + '\n\nExit codes: 0 verdict pass, 1 any other verdict, 2 invalid input.')
    .action(async (options) => {
      const { testRunCommand } = await import('./test-run-command.js');
      exitCode = await testRunCommand(options, io);
    });

  program
    .command('resume')
    .description('continue a run that test-run left paused at an approval gate, from its checkpoint file')
    .argument('<run_id>', 'the run_id test-run printed when the run paused')
    .addOption(new Option('--decision <answer>', 'the answer to the gated call').choices(['approve', 'deny']).makeOptionMandatory())
    .option(
      '--spans <file>',
      "the --spans file given to test-run: the checkpoint is read from its folder and the resumed run's spans are appended to it (default folder: reports/runs)",
      nonEmpty,
    )
    .option('--timeout <ms>', `wall-clock cap of the resumed run in ms (default ${DEFAULT_TEST_RUN_TIMEOUT_MS})`, timeoutMs)
    .option('--json', 'print only the TestRunResult JSON on stdout (with run_id when the run is still paused)')
    .addHelpText('after', RESUME_EXAMPLES + '\n\nExit codes: 0 verdict pass, 1 any other verdict, 2 invalid input or no such\npaused run.')
    .action(async (runId: string, options) => {
      const { resumeCommand } = await import('./resume-command.js');
      exitCode = await resumeCommand(runId, options, io);
    });

  program
    .command('validate')
    .description('check agent builds, scenarios, flows, plans, chains and skills without running anything')
    .argument('[paths...]', 'files or folders (default: the current folder)', pathArguments('a file or folder'))
    .option(
      '--config <file>',
      'suite config to validate with its variants (default: the agentcheck.config.yaml, .yml or .json of the current folder)',
      nonEmpty,
    )
    .option(
      '--overlay <folder>',
      "a skill folder delivered after the revision's own, as run's --overlay: it counts for load_skill; a comma list or the flag repeated for several",
      collectFolders,
    )
    .addHelpText(
      'after',
      '\nExamples:\n  $ agentcheck validate scenarios/\n  $ agentcheck validate fixtures/agents/support-bot.yaml\n  $ agentcheck validate scenarios/ --overlay skills/triage',
    )
    .action(async (paths: string[], options) => {
      const { validateCommand } = await import('./validate-command.js');
      exitCode = await validateCommand(paths, options, io);
    });

  program
    .command('init')
    .description('write a starter suite: an agent build, two scenarios, agentcheck.config.yaml and a README')
    .argument('[dir]', 'folder to write into (default: the current folder); existing files are never overwritten', pathArgument('a folder'))
    .addHelpText('after', '\nExamples:\n  $ agentcheck init agent-tests\n  $ agentcheck run agent-tests')
    .action(async (dir: string | undefined) => {
      const { initCommand } = await import('./init-command.js');
      exitCode = await initCommand(dir, io);
    });

  program
    .command('mcp')
    .description('serve test_run, resume_run, query_spans and validate as an MCP server over stdio (docs/mcp.md)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ agentcheck mcp\n  MCP client config:\n    {"mcpServers": {"agentcheck": {"command": "npx",\n                                   "args": ["agentcheck", "mcp"]}}}\n\nRelative paths in tool arguments resolve against the folder the server starts\nin.',
    )
    .action(async () => {
      const { mcpCommand } = await import('./mcp-command.js');
      exitCode = await mcpCommand(io);
    });

  const spans = program.command('spans').description('work with spans.jsonl files');
  spans
    .command('query')
    .description('filter spans of a spans.jsonl file (query language of docs/query-spans.md)')
    .argument('<file>', 'a spans.jsonl file', pathArgument('a spans.jsonl file'))
    .option('--trace <id>', 'only this trace')
    .option('--where <json>', 'a filtering object (docs/query-spans.md), as in the second example below')
    .option('--limit <n>', 'at most n spans (0: only the count)', wholeNumber)
    .addHelpText(
      'after',
      '\nExamples:\n  $ agentcheck spans query reports/spans.jsonl --trace 4bf92f35...\n  $ agentcheck spans query reports/spans.jsonl \\\n      --where \'{"conditions":[{"field":"status","operator":"is",\n                             "value":"error"}]}\'',
    )
    .action(async (file: string, options) => {
      const { spansQueryCommand } = await import('./spans-query-command.js');
      exitCode = await spansQueryCommand(file, options, io);
    });

  program
    .command('compare')
    .description(
      'compare two report.json files: regressions, improvements, appeared, vanished (exit 1 on a regression, an interrupted run, a merge missing shards, or nothing in common)',
    )
    .argument('<base>', 'baseline report.json', pathArgument('a report.json file'))
    .argument('<head>', 'new report.json', pathArgument('a report.json file'))
    .option('--json', 'print the comparison as JSON')
    .addHelpText('after', '\nExamples:\n  $ agentcheck compare main/report.json reports/report.json')
    .action(async (base: string, head: string, options) => {
      const { compareCommand } = await import('./compare-command.js');
      exitCode = await compareCommand(base, head, options, io);
    });

  program
    .command('merge')
    .description('combine the report.json files of sharded runs into one report (statistics recomputed over the whole)')
    .argument('<reports...>', 'report.json of each shard (agentcheck run --shard I/N --reporter json)', pathArguments('a report.json file'))
    .requiredOption('--out <dir>', 'output folder for the merged reports and spans.jsonl (required)', nonEmpty)
    .option(
      '--reporter <list>',
      `comma list of ${REPORTER_NAMES.filter((name) => name !== 'json').join(', ')}; repeat the flag to add more (default: table; json is always written)`,
      appendList,
    )
    .option('--quiet', 'terminal output: failures and the summary only')
    .addHelpText(
      'after',
      '\nExamples:\n  $ agentcheck merge shards/*/report.json --out reports --reporter md,junit\n\nExit codes: 0 every merged row passed; 1 a row failed, a shard is missing or\nwas interrupted, or a report could not be written; 2 the reports cannot be\nmerged (different suites, overlapping shards, not a report.json). See\ndocs/ci.md.',
    )
    .action(async (reports: string[], options) => {
      const { mergeCommand } = await import('./merge-command.js');
      exitCode = await mergeCommand(reports, options, io);
    });

  refuseRepeatedValues(program);
  // A word more than a command's arguments names the flag it most likely belongs to.
  refuseStrayArguments(program, () => commandLine);
  try {
    commandLine = spreadNameLists(helpRequest(argv, program), io.cwd);
    await program.parseAsync(commandLine);
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end through here with exit code 0.
      return error.exitCode === 0 ? EXIT.ok : EXIT.invalidInput;
    }
    return reportError(error, io);
  }
  return exitCode;
}
