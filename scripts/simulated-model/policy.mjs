// @ts-check
/**
 * The simulated model's policy: a deterministic stand-in for an LLM choosing tools, used to
 * record the cassettes of scenarios/toolsets. It is a keyword heuristic, not a language model:
 *
 * - the last user message is split into steps at ", then" / "then" / ";";
 * - step i (i = tool calls answered so far) is matched against every tool offered in the
 *   request: 2 points per distinct step word in the tool's name, 1 per other distinct step word
 *   in its description, plus seeded uniform noise in [0, noise);
 * - the best tool is called with arguments filled from the message; after the last step the
 *   model answers with text.
 *
 * So overlapping, vaguely described tools tie or nearly tie and the noise picks among them,
 * while distinct names and sharp descriptions leave a margin the noise cannot bridge.
 */

/** Default noise amplitude: a one-point lead survives most draws, a two-point lead all of them. */
export const DEFAULT_NOISE = 1.5;

const STOPWORDS = new Set(
  (
    'a an the to of in on for and or it its is be with by from as at this that these those me my ' +
    'our we you your can could would please so then into has have do does before after'
  ).split(' '),
);

/** Lower-cased words of at least two characters, plural `s` dropped, stopwords removed. */
export function words(text) {
  const out = new Set();
  for (const raw of String(text)
    .toLowerCase()
    .split(/[^a-z0-9]+/)) {
    if (raw.length < 2 || STOPWORDS.has(raw)) continue;
    out.add(stem(raw));
  }
  return out;
}

function stem(word) {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** The steps of a request: clauses split at "then" and ";". */
export function steps(message) {
  return String(message)
    .split(/(?:,\s*|\s+)then\s+|;\s*/i)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Score of one tool for one step, without noise. */
export function score(stepWords, tool) {
  const name = words(tool.name.replace(/_/g, ' '));
  const description = words(tool.description ?? '');
  let points = 0;
  for (const word of stepWords) {
    if (name.has(word)) points += 2;
    else if (description.has(word)) points += 1;
  }
  return points;
}

/** FNV-1a, 32-bit: a seed from text. */
export function hash32(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: small, fast and the same on every platform. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The tool for one step: highest score plus noise; the noise stream is seeded by the seed, the
 * sample (which repeat this is), the step and the offered tool names, so a run is reproducible.
 */
export function pickTool(step, tools, { seed, sample, noise = DEFAULT_NOISE }) {
  const stepWords = words(step);
  const random = mulberry32(hash32(`${seed}|${sample}|${step}|${tools.map((t) => t.name).join(',')}`));
  let best = null;
  for (const tool of tools) {
    const total = score(stepWords, tool) + random() * noise;
    if (!best || total > best.total) best = { tool, total };
  }
  return best ? best.tool : null;
}

const AGENT_ID = /\b[a-z0-9]+(?:-[a-z0-9]+)*-bot\b/;
const IDENTIFIER = /\b[a-z][a-z0-9]*_[a-z0-9_]+\b/;

/**
 * Arguments from the tool's JSON Schema: `agent` gets the `*-bot` id in the message, `tool` or
 * `name` a snake_case identifier in the step, any other string property the step's text.
 */
export function fillArguments(tool, step, message) {
  const properties = tool.parameters?.properties ?? {};
  const args = {};
  for (const [key, schema] of Object.entries(properties)) {
    if (schema?.type !== 'string') continue;
    if (key === 'agent') args[key] = AGENT_ID.exec(message)?.[0] ?? 'support-bot';
    else if (key === 'tool' || key === 'name') {
      const id = IDENTIFIER.exec(step)?.[0];
      if (id) args[key] = id;
    } else args[key] = step;
  }
  return args;
}
