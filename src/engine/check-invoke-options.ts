import { abortSignalProblem } from '../config/abort-signal-problem.js';
import { assertFormat, memoryLocator, type Locator } from '../config/assert-format.js';
import { collectConfigErrors, ConfigError, throwConfigErrors } from '../config/errors.js';
import { describeValue } from '../config/describe-value.js';
import { unknownOptionKeys } from '../config/option-keys.js';
import { ownValue } from '../config/own-key.js';
import { withoutUndefined } from '../config/without-undefined.js';
import { mcpServersProblem } from './mcp/mcp-servers-problem.js';
import { approvalsProblems } from './permissions/approvals-problems.js';
import { transcriptProblems } from './model/message-problems.js';
import { assertScript } from './providers/script-schema.js';
import type { AgentBuild } from './revision/types.js';
import { skillOptionFolderProblems } from './skill-option-folders.js';
import type { SkillOptions } from './skills-delivery.js';
import { skillsSchema } from './skills-options-schema.js';

/** A problem with an option, or null; `[sub-path, message]` locates it inside the option (`[0]`). */
type Check = (value: unknown) => string | [at: string, message: string] | null;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const objectWith =
  (what: string, method: string): Check =>
  (value) =>
    isObject(value) && typeof value[method] === 'function' ? null : `expected ${what} (an object with ${method}()), got ${describeValue(value)}`;
const oneOf =
  (what: string, test: (value: unknown) => boolean): Check =>
  (value) =>
    test(value) ? null : `expected ${what}, got ${describeValue(value)}`;

/** What prompt security can find as `<name>`: a name without spaces, brackets or slashes. */
const TAG_NAME = /^[^\s<>/]+$/;

/** What `model` and `script` given together are told (invoke, resume and testRun). */
export const BOTH_MODEL_AND_SCRIPT = 'give model or script, not both: they are two ways to give the model (a Model of your own, or scripted responses)';

/** What each invoke option must be (docs/engine-loop.md, From code). */
const OPTIONS: Record<string, Check> = {
  model: objectWith('a Model', 'generate'),
  // Not a list, or an entry that is no object, is the script rules' to say (DEEP), each at its own path.
  script: () => null,
  // Its format and its answers held to the build are the approvals rules' to say (DEEP), all at once.
  approvals: () => null,
  workspace: objectWith('a Workspace such as FolderWorkspace.copyOf(dir)', 'root'),
  tracer: objectWith('an OpenTelemetry Tracer', 'startSpan'),
  env: oneOf(
    'an environment {NAME: value}',
    (value) => isObject(value) && Object.values(value).every((item) => item === undefined || typeof item === 'string'),
  ),
  signal: abortSignalProblem,
  conversationId: oneOf('a string', (value) => typeof value === 'string'),
  skills: oneOf('skill options {forced?, overlay?, delivery?}', isObject),
  encodedTags: (value) => {
    if (!Array.isArray(value)) return `expected a list of tag names, got ${describeValue(value)}`;
    // An empty name matched every closing tag (`</` followed by no word character) and no opening one.
    const index = value.findIndex((tag: unknown) => typeof tag !== 'string' || !TAG_NAME.test(tag));
    return index < 0 ? null : [`[${index}]`, `expected a tag name such as "system" (no spaces, <, > or /), got ${describeValue(value[index])}`];
  },
  checkpointer: objectWith('a Checkpointer such as new MemoryCheckpointer()', 'save'),
  mcpServers: mcpServersProblem,
  captureContent: oneOf('true or false', (value) => typeof value === 'boolean'),
  otlpEndpoint: oneOf('an http(s) URL', (value) => typeof value === 'string'),
  beforeExternalStop: oneOf('a function', (value) => typeof value === 'function'),
  approvalsHeldTo: oneOf('a list of agent builds', (value) => Array.isArray(value) && value.every(isObject)),
  onToolsListed: oneOf('a function', (value) => typeof value === 'function'),
  approvalsAt: oneOf('a function (path, expected) returning a ConfigError', (value) => typeof value === 'function'),
};

/**
 * What the options a first check finds sound must also hold, with the rules (and messages) a
 * scenario file, testRun and test_run apply: the script's and skills' format (precompiled
 * validators, so a call costs no schema compilation), each skill folder a skill (read here, so
 * the runner, which checked its request, calls invokeChecked), and approvals held to the build.
 */
const DEEP: Record<string, (value: unknown, locate: Locator, build: AgentBuild) => void> = {
  script: assertScript,
  skills: (value, locate) => {
    assertFormat(skillsSchema, withoutUndefined(value), locate);
    throwConfigErrors(skillOptionFolderProblems(value as SkillOptions, locate));
  },
  // As test-run --approvals and testRun hold it: its format's problems beside each answer held to the build.
  approvals: (value, locate, build) => throwConfigErrors(approvalsProblems(value, build, locate)),
};

const INPUT_KEYS = ['messages', 'context'];

/** What is checked: invoke's options and its input, or resume's options (it takes no input). */
export type CheckedCall = { caller: 'invoke'; input: unknown } | { caller: 'resume' };

/**
 * Checks what a library caller gives invoke (or resume): every wrong option or message in one
 * ConfigError (`invoke at options.workspace: expected a Workspace ...`), never a run whose tools
 * all fail with EIO or whose misspelt approvals, script entries or input keys are ignored.
 * `build` is the revision's, which approvals are held to.
 */
export function checkInvokeOptions(options: unknown, build: AgentBuild, call: CheckedCall): void {
  const { caller } = call;
  const problems: ConfigError[] = [];
  const at = (path: string, message: string) => problems.push(new ConfigError({ file: caller, path }, message));
  if (!isObject(options)) at('options', `expected an options object, got ${describeValue(options)}`);
  else {
    for (const [key, value] of Object.entries(options)) {
      // By own key: `constructor` or `toString` is an unknown option, not a member of Object.prototype.
      const check = ownValue(OPTIONS, key);
      if (!check) at(`options.${key}`, `unknown option "${key}"; expected one of: ${Object.keys(OPTIONS).join(', ')}`);
      else if (value !== undefined) {
        const problem = check(value);
        if (typeof problem === 'string') at(`options.${key}`, problem);
        else if (problem) at(`options.${key}${problem[0]}`, problem[1]);
        else if (DEEP[key]) collectConfigErrors(problems, () => DEEP[key](value, memoryLocator(caller, ['options', key]), build));
      }
    }
  }
  // Two ways to give the model: taking one would drop the other without a word.
  if (isObject(options) && options.model !== undefined && options.script !== undefined) at('options.script', BOTH_MODEL_AND_SCRIPT);
  if (call.caller === 'invoke') problems.push(...inputProblems(call.input));
  throwConfigErrors(problems);
}

/** invoke's input `{messages, context?}`: its keys, and each message's by its role. */
function inputProblems(input: unknown): ConfigError[] {
  const at = (path: string, message: string) => new ConfigError({ file: 'invoke', path }, message);
  // A missing argument is named as such (it was a TypeError reading `messages`).
  if (input === undefined) return [at('input', 'expected {messages, context?}, got undefined')];
  if (!isObject(input)) return [at('input', `expected {messages, context?}, got ${describeValue(input)}`)];
  const messages = input.messages;
  const problems = unknownOptionKeys(input, INPUT_KEYS, 'invoke', 'input.');
  if (input.context !== undefined && !isObject(input.context)) {
    problems.push(at('input.context', `expected an object (a flow's initial context), got ${describeValue(input.context)}`));
  }
  if (!Array.isArray(messages)) problems.push(at('input.messages', `expected a list of messages {role, content}, got ${describeValue(messages)}`));
  // No message would leave the model nothing to answer, as testRun's `inputs` says.
  else if (!messages.length) problems.push(at('input.messages', 'expected at least one message {role, content}, got an empty list'));
  else problems.push(...transcriptProblems(messages, 'invoke', 'input.messages'));
  return problems;
}
