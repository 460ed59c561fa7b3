/**
 * Converts one Berkeley Function Calling Leaderboard entry (question + ground truth) into an
 * agentcheck agent build and scenario. Pure functions: no file access, so the conformance test
 * and the CLI (scripts/bfcl-convert.ts) share them.
 */

/** The BFCL categories converted here. */
export const BFCL_CATEGORIES = ['simple_python', 'multiple', 'parallel', 'parallel_multiple'] as const;
/** A BFCL category name. */
export type BfclCategory = (typeof BFCL_CATEGORIES)[number];

/** A BFCL parameter schema (JSON-Schema-like, with BFCL's own types). */
export interface BfclSchema {
  type?: string;
  description?: string;
  properties?: Record<string, BfclSchema>;
  items?: BfclSchema;
  required?: string[];
  [key: string]: unknown;
}

/** A line of `BFCL_v4_<category>.json`. */
export interface BfclQuestion {
  id: string;
  question: Array<Array<{ role: string; content: string }>>;
  function: Array<{ name: string; description: string; parameters: BfclSchema }>;
}

/** A line of `possible_answer_BFCL_v4_<category>.json`: per call, per argument, the acceptable values. */
export interface BfclAnswer {
  id: string;
  ground_truth: Array<Record<string, Record<string, unknown[]>>>;
}

/** One expected call: the tool, the `$one_of` expectations, and the concrete ground-truth arguments. */
export interface BfclExpectedCall {
  tool: string;
  args: Record<string, unknown>;
  call: Record<string, unknown>;
}

/** The result of converting one entry. */
export interface ConvertedBfclEntry {
  id: string;
  category: BfclCategory;
  /** Path of the agent build relative to fixtures/bfcl. */
  agentPath: string;
  agent: Record<string, unknown>;
  /** One item of `scenarios:` in `<category>.scenarios.yaml`. */
  scenario: Record<string, unknown>;
  expected: BfclExpectedCall[];
  /** The tool names the agent offers (for wrong-function tests). */
  tools: string[];
}

const TYPE_MAP: Record<string, string | null> = { dict: 'object', float: 'number', tuple: 'array', any: null };
/** BFCL schema keys that are not JSON Schema (e.g. `optional: true`) are dropped. */
const DROPPED_KEYS = new Set(['optional']);

/** BFCL function names may hold '.', which tool names cannot: mapped to '_' as BFCL does for such providers. */
export function bfclToolName(name: string): string {
  return name.replace(/\./g, '_');
}

/**
 * BFCL parameter schema -> JSON Schema: dict/float/tuple/any -> object/number/array/no constraint;
 * a `default` that does not fit the type is dropped.
 */
export function convertBfclSchema(schema: BfclSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED_KEYS.has(key)) continue;
    if (key === 'type' && typeof value === 'string') {
      const mapped = value in TYPE_MAP ? TYPE_MAP[value] : value;
      if (mapped !== null) out.type = mapped;
    } else if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(Object.entries(value as Record<string, BfclSchema>).map(([name, sub]) => [name, convertBfclSchema(sub)]));
    } else if (key === 'items' && value && typeof value === 'object') {
      out.items = convertBfclSchema(value as BfclSchema);
    } else {
      out[key] = value;
    }
  }
  // BFCL writes some defaults as Python text ("false" for a boolean, "None"): agentcheck refuses a
  // default that does not fit its own schema at load, so such a default is left out.
  if (out.default !== undefined && !fitsType(out.default, out.type)) delete out.default;
  return out;
}

/**
 * One argument's acceptable values -> `{$one_of: [...]}`. A dict option (`{key: [values]}` in
 * BFCL) becomes an object whose keys are `$one_of` matchers, so nested keys keep BFCL's rules.
 */
export function oneOfFor(options: readonly unknown[]): { $one_of: unknown[] } {
  return { $one_of: options.map(convertOption) };
}

function convertOption(option: unknown): unknown {
  if (Array.isArray(option)) return option.map((item) => (isDict(item) ? dictOption(item) : item));
  return isDict(option) ? dictOption(option) : option;
}

function dictOption(dict: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(dict).map(([key, values]) => [key, oneOfFor(Array.isArray(values) ? values : [values])]));
}

/** The value a correct model would send: the first acceptable value that fits the type; undefined = leave it out. */
export function groundTruthValue(options: readonly unknown[], schema: Record<string, unknown> | undefined): unknown {
  const real = options.filter((option) => option !== '');
  // No option fits the declared type (e.g. mod: ["", null] for a number): leave an optional argument out.
  const chosen = real.find((option) => fitsType(option, schema?.type)) ?? (options.includes('') ? undefined : real[0]);
  if (chosen === undefined) return undefined;
  if (isDict(chosen)) return dictValue(chosen, schema);
  if (Array.isArray(chosen)) {
    const items = schema?.items as Record<string, unknown> | undefined;
    return chosen.map((item) => (isDict(item) ? dictValue(item, items) : item));
  }
  return chosen;
}

function dictValue(dict: Record<string, unknown>, schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const properties = (schema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  const out: Record<string, unknown> = {};
  for (const [key, values] of Object.entries(dict)) {
    const value = groundTruthValue(Array.isArray(values) ? values : [values], properties[key]);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

function fitsType(value: unknown, type: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isDict(value);
    default:
      return true;
  }
}

function isDict(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Converts one entry; `parallel*` categories check with an unordered tool_sequence, the others with tool_called. */
export function convertBfclEntry(question: BfclQuestion, answer: BfclAnswer, category: BfclCategory): ConvertedBfclEntry {
  if (question.id !== answer.id) throw new Error(`question ${question.id} and answer ${answer.id} are not the same entry`);
  const tools = question.function.map((fn) => ({
    name: bfclToolName(fn.name),
    description: fn.description,
    parameters: convertBfclSchema(fn.parameters),
    returns: { ok: true },
  }));
  const schemas = new Map(question.function.map((fn, index) => [fn.name, tools[index].parameters]));
  const expected = answer.ground_truth.map((call) => {
    const [name, possible] = Object.entries(call)[0];
    const schema = schemas.get(name);
    if (!schema) throw new Error(`${question.id}: ground truth calls ${name}, which is not among its functions`);
    const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    const args: Record<string, unknown> = {};
    const concrete: Record<string, unknown> = {};
    for (const [arg, options] of Object.entries(possible)) {
      // BFCL rejects an argument the function does not declare, whatever the ground truth lists.
      if (!(arg in properties) && options.includes('')) continue;
      args[arg] = oneOfFor(options);
      const value = groundTruthValue(options, properties[arg]);
      if (value !== undefined) concrete[arg] = value;
    }
    return { tool: bfclToolName(name), args, call: concrete };
  });

  const messages = question.question.flat();
  const system = messages.filter((message) => message.role === 'system').map((message) => message.content);
  const agentPath = `agents/${category}/${question.id}.yaml`;
  const agent = {
    id: `bfcl-${question.id}`.toLowerCase(),
    agent: {
      name: `BFCL ${question.id}`,
      instructions: [...system, "Answer the user's request by calling the provided functions."].join('\n\n'),
      llm: { provider: 'scripted', model: 'bfcl-ground-truth' },
      max_turns: 4,
      permissions: { mode: 'allow' },
      tools,
    },
  };
  const parallel = category === 'parallel' || category === 'parallel_multiple';
  const checks = parallel
    ? [{ tool_sequence: { mode: 'unordered', args_mode: 'exact', calls: expected.map(({ tool, args }) => ({ tool, args })) } }]
    : [...expected.map(({ tool, args }) => ({ tool_called: { tool, args, args_mode: 'exact' } })), { max_tool_calls: expected.length }];
  const scenario = {
    name: question.id,
    agent: agentPath,
    inputs: { messages: messages.filter((message) => message.role !== 'system').map(({ role, content }) => ({ role, content })) },
    model: { script: [{ tool_calls: expected.map(({ tool, call }) => ({ name: tool, args: call })) }, { text: 'done' }] },
    expect: { checks },
  };
  return { id: question.id, category, agentPath, agent, scenario, expected, tools: tools.map((tool) => tool.name) };
}
