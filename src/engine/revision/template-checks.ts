import { quoteCapped, shownNames } from '../../config/cap-text.js';
import type { Locator } from '../../config/assert-format.js';
import { throwConfigErrors, type ConfigError } from '../../config/errors.js';
import { quotedUrl } from '../../config/display-url.js';
import { didYouMean } from '../../config/did-you-mean.js';
import { urlPortProblem } from '../../config/url-port.js';
import type { PathSegments } from '../../config/source.js';
import { TEMPLATE_HEAD_SOURCE, TEMPLATE_NAME_SOURCE } from '../template/interpolate.js';
import { dotSegment } from '../template/url-template.js';

/**
 * A `{{` that opens a template (a name follows) with no `}}` anywhere after it. Text that merely
 * holds braces (`{{"a": 1}}`, `{{- raw`) is not a template and is left alone, as at run time.
 */
const OPENING = /\{\{\s*[A-Za-z_$]/g;
/**
 * An empty `{{ }}`: a template whose name is missing, which no template language reads. Other
 * braces with no name first stay literal text, as at run time: `{{ .State.Running }}` and
 * `{{ "a" }}` are Go or Jinja templates a command or body may pass on to another program.
 */
const NAMELESS = /\{\{\s*\}\}/;
const EXPECTED = 'expected {{ name }} or {{ name.path }} (letters, digits, _, $ and -, segments joined by dots)';
/** A whole template as the engine reads it (src/engine/template/), with the filter a URL allows. */
const TEMPLATE_SOURCE = String.raw`\{\{\s*${TEMPLATE_NAME_SOURCE}\s*(?:\|\s*path\s*)?\}\}`;
const TEMPLATE = new RegExp(TEMPLATE_SOURCE);
const TEMPLATES = new RegExp(TEMPLATE_SOURCE, 'g');
const LEADING_TEMPLATE = new RegExp(String.raw`^\s*${TEMPLATE_SOURCE}`);
/** A template starting exactly at `lastIndex`, capturing its dotted name and any `| filter`. */
const TEMPLATE_AT_SOURCE = String.raw`\{\{\s*(${TEMPLATE_NAME_SOURCE})\s*(?:\|\s*([^\s{}|]*)\s*)?\}\}`;
const TEMPLATE_AT = new RegExp(TEMPLATE_AT_SOURCE, 'y');

/** Why `text` holds an unclosed template, or undefined. */
export function unclosedTemplate(text: string): string | undefined {
  for (const match of text.matchAll(OPENING)) {
    const start = match.index ?? 0;
    if (!text.includes('}}', start + 2)) {
      const shown = text.slice(start, start + 40);
      return `unclosed template "${shown}${text.length > start + 40 ? '...' : ''}": expected "}}" to close "{{"`;
    }
  }
  return undefined;
}

/**
 * Why `text` holds a `{{` that opens a template but is not one the engine reads (`{{ args.q!uery }}`,
 * `{{ a b }}`, a `| filter` not in `filters`, or an empty `{{ }}`), or
 * undefined: left alone, it would be sent as literal text. Only an http tool's url takes a filter.
 */
export function malformedTemplate(text: string, filters: readonly string[] = []): string | undefined {
  for (const match of text.matchAll(OPENING)) {
    const start = match.index ?? 0;
    TEMPLATE_AT.lastIndex = start;
    const template = TEMPLATE_AT.exec(text);
    if (template) {
      const filter = template[2];
      if (filter === undefined || filters.includes(filter)) continue;
      return filters.length
        ? `unknown filter ${quoteCapped(filter)} in ${quoteCapped(template[0])}: expected ${filters.map((name) => `| ${name}`).join(' or ')}${didYouMean(filter, filters)}`
        : `filter "| ${filter}" in ${quoteCapped(template[0])} is not allowed here: only an http tool's url takes one ({{ args.repo | path }})`;
    }
    const close = text.indexOf('}}', start + 2);
    const shown = close >= 0 && close - start < 60 ? text.slice(start, close + 2) : `${text.slice(start, start + 40)}...`;
    return `malformed template ${quoteCapped(shown)}: ${EXPECTED}`;
  }
  const nameless = NAMELESS.exec(text);
  if (!nameless) return undefined;
  return `malformed template ${quoteCapped(nameless[0])}: the name is missing; ${EXPECTED}`;
}

/** `text` with each template blanked out (spaces, its length kept): the literal text, at its places. */
export function maskTemplates(text: string): string {
  return text.replace(TEMPLATES, (template) => ' '.repeat(template.length));
}

/** The dotted names of the templates in `text`, in order. */
export function templateNames(text: string): string[] {
  return [...text.matchAll(new RegExp(TEMPLATE_AT_SOURCE, 'g'))].map((match) => match[1]);
}

/**
 * Refuses an unclosed or malformed `{{ ...` in any string inside `value` (object values and array
 * items, deeply), at the path of that string: left alone, the engine would send it as literal text.
 * Every such string is reported in one pass (docs/cli.md, validate).
 */
export function checkTemplatesClosed(value: unknown, at: PathSegments, locate: Locator, filters: readonly string[] = []): void {
  throwConfigErrors(templateSyntaxProblems(value, at, locate, filters).problems);
}

/** The unclosed or malformed template of each string inside `value`, and the strings free of one. */
function templateSyntaxProblems(value: unknown, at: PathSegments, locate: Locator, filters: readonly string[]) {
  const problems: ConfigError[] = [];
  const sound: Array<{ text: string; path: PathSegments }> = [];
  forEachString(value, at, (text, path) => {
    const problem = unclosedTemplate(text) ?? malformedTemplate(text, filters);
    if (problem) problems.push(locate(path, problem));
    else sound.push({ text, path });
  });
  return { problems, sound };
}

/** A template an http tool's header may hold besides its arguments: `{{ env.NAME }}`, NAME a portable variable name. */
const ENV_TEMPLATE_NAME = /^env\.[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Whether a template's dotted name reads one environment variable (`env.GITHUB_TOKEN`), as the
 * header values of MCP servers over HTTP and of http tools may (docs/mcp.md, docs/formats.md).
 */
export function isEnvTemplateName(name: string): boolean {
  return ENV_TEMPLATE_NAME.test(name);
}

/** Where a tool's templates stand: `filters` the url's `| path`; `env` for header values, which may read the environment. */
export interface ArgsTemplateSite {
  filters?: readonly string[];
  env?: boolean;
}

/**
 * Refuses templates an http or command tool can never fill: only `args` is in scope, plus
 * `{{ env.NAME }}` in an http tool's header values (`site.env`), and when the tool's parameters
 * list their properties (without allowing others), `{{ args.<name> }}` must name one of them
 * (closedArgumentNames). `properties` null: not checked.
 */
export function checkArgsTemplates(value: unknown, at: PathSegments, locate: Locator, properties: readonly string[] | null, site: ArgsTemplateSite = {}): void {
  // Every template of every string, so one pass reports each (docs/cli.md, validate).
  const { problems, sound } = templateSyntaxProblems(value, at, locate, site.filters ?? []);
  for (const { text, path } of sound) {
    for (const name of templateNames(text)) {
      const [head, argument] = name.split('.');
      if (head === 'env' && site.env) {
        if (!isEnvTemplateName(name)) {
          problems.push(
            locate(
              path,
              `template "{{ ${name} }}" names no environment variable: expected {{ env.NAME }}, NAME of letters, digits and _ (not starting with a digit), with nothing after it`,
            ),
          );
        }
      } else if (head !== 'args') {
        problems.push(locate(path, `unknown template "{{ ${name} }}": ${outOfScope(site)}${didYouMean(head, site.env ? ['args', 'env'] : ['args'])}`));
      } else if (argument !== undefined && properties && !properties.includes(argument)) {
        problems.push(
          locate(
            path,
            `template "{{ ${name} }}" names no parameter of the tool; expected one of: ${shownNames(properties) || '(none)'}${didYouMean(argument, properties)}`,
          ),
        );
      }
    }
  }
  throwConfigErrors(problems);
}

/** What a tool's templates may read where `site` stands, for an unknown template's message. */
function outOfScope(site: ArgsTemplateSite): string {
  if (site.env) return "an http tool's header values read its call arguments, as {{ args.<name> }}, and the environment, as {{ env.NAME }}";
  return "a tool's templates read its call arguments only, as {{ args.<name> }}; only an http tool's header values may also read the environment, as {{ env.NAME }}";
}

const BINDING_NAME = new RegExp(`^${TEMPLATE_HEAD_SOURCE}$`);

/**
 * Refuses a variable name no template can read (`"a b"`, `"a.b"`, `"1st"`): `{{ a.b }}` walks
 * into `a`, so such a binding is set on every run and never used. Shared by a plan's constants,
 * `returns` and `item_name` and a chain's `map_outputs` targets; `atKey` when the name is a key.
 */
export function checkBindingName(name: string, at: PathSegments, what: string, locate: Locator, atKey = false): void {
  if (BINDING_NAME.test(name)) return;
  throw locate(
    at,
    `${what} ${quoteCapped(name)} can never be read by a template: expected a name of letters, digits, _, $ and - that starts with a letter, _ or $ (no spaces or dots)`,
    atKey,
  );
}

/** Calls `visit` with every string inside `value` (object values and array items, deeply) and its path. */
export function forEachString(value: unknown, at: PathSegments, visit: (text: string, at: PathSegments) => void): void {
  if (typeof value === 'string') visit(value, at);
  else if (Array.isArray(value)) value.forEach((item, index) => forEachString(item, [...at, index], visit));
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) forEachString(item, [...at, key], visit);
  }
}

/** Values tried in place of templates: one of them fits wherever a template may sit in a URL. */
const PLACEHOLDERS = ['0', 'x', '::1'];

/**
 * Why an http tool's url cannot be a valid absolute http(s) URL, or undefined. Templates are
 * replaced with placeholders first; a url that starts with a template takes its scheme and host
 * from the arguments, so only the run can check it. `written` is the url as the user wrote it,
 * when `url` had a placeholder of its own filled in (an external agent's `{port}`).
 */
export function httpUrlProblem(url: string, written = url): string | undefined {
  const unclosed = unclosedTemplate(url);
  if (unclosed) return unclosed;
  const misplaced = misplacedPathFilter(url);
  if (misplaced) return misplaced;
  if (LEADING_TEMPLATE.test(url)) return undefined;
  const templated = TEMPLATE.test(url);
  const candidates = templated ? PLACEHOLDERS.map((placeholder) => url.replace(TEMPLATES, placeholder)) : [url];
  const parsed = candidates.map((candidate) => (URL.canParse(candidate) ? new URL(candidate) : undefined)).find(Boolean);
  // A refused URL may hold a password or a token: quoted without them.
  const shown = quotedUrl(written);
  // A port out of range is named (the parser would only say the URL is invalid); one written
  // with a placeholder in it is left to the URL check.
  const port = urlPortProblem(written);
  if (port) return `${port}, got ${shown}`;
  if (!parsed) {
    return templated
      ? `expected an absolute URL such as "https://api.example.com/items/{{ args.id }}", got ${shown}, which is not a URL even with its templates filled in`
      : `expected an absolute URL such as "https://api.example.com/items", got ${shown}`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return `expected an http:// or https:// URL, got ${shown} (scheme ${quoteCapped(parsed.protocol.slice(0, -1))})`;
  }
  const segment = dotSegment(url.replace(TEMPLATES, 'x'));
  if (segment !== undefined) return `URL ${shown} has a ${quoteCapped(segment)} path segment, which URL parsers remove; write the path it stands for`;
  return undefined;
}

/** Text that ends inside the path of an http(s) URL, as the URL parser reads it (`\\` is `/`). */
const ENDS_IN_PATH = /^\s*[A-Za-z][A-Za-z\d+.-]*:[/\\]*[^/\\?#]+[/\\][^?#]*$/;

/**
 * Why a `{{ x | path }}` in `url` stands outside the URL's path (the whole URL, its scheme or
 * host, its query or fragment), or undefined: `| path` keeps `/` between path segments, so
 * anywhere else it has no meaning, and as scheme or host it would let a value pick the server.
 */
function misplacedPathFilter(url: string): string | undefined {
  for (const match of url.matchAll(new RegExp(TEMPLATE_AT_SOURCE, 'g'))) {
    if (match[2] !== 'path') continue;
    const before = url.slice(0, match.index).replace(TEMPLATES, 'x');
    if (ENDS_IN_PATH.test(before)) continue;
    const part = url.trim() === match[0] ? 'the whole URL' : /[?#]/.test(before) ? "the URL's query or fragment" : "the URL's scheme or host";
    return (
      `${quoteCapped(match[0])} stands for ${part}, but "| path" belongs inside the path (after "https://host/"), where it keeps "/" between segments; ` +
      `expected it in the path, as in "https://api.example.com/repos/{{ ${match[1]} | path }}/issues", or {{ ${match[1]} }} without the filter`
    );
  }
  return undefined;
}
