import { quoteCapped } from '../../config/cap-text.js';
import type { FormatCheck, Locator } from '../../config/assert-format.js';
import { quotedUrl } from '../../config/display-url.js';
import { collectConfigErrors, throwConfigErrors, type ConfigError } from '../../config/errors.js';
import type { PathSegments } from '../../config/source.js';
import { headerProblems } from '../revision/header-checks.js';
import { checkTemplatesClosed, isEnvTemplateName, templateNames } from '../revision/template-checks.js';
import type { AgentSpec, McpServerSpec } from '../revision/types.js';
import { MAX_TOOL_NAME_LENGTH, MCP_TOOL_PREFIX, mcpToolName } from './mcp-tool-name.js';

/**
 * The rules for `agent.mcps` a schema cannot say: unique server names, no `__` inside a name
 * (it separates server and tool in `mcp__<server>__<tool>`), allow-list entries offered under
 * unique names of at most 64 characters, no
 * agent tool named with the reserved `mcp__` prefix, and exactly one of `command` (stdio) and
 * `url` (Streamable HTTP) with the keys that belong to it. Every problem of every entry is
 * reported in one pass (a ConfigErrors when there are several), each at its own path. `format`
 * says which parts are sound: an entry with a format problem in one key (a bad `timeout_ms`) is
 * still checked in the others, and its name still counts for duplicates (docs/mcp.md).
 */
export function validateMcps(agent: AgentSpec, locate: Locator, format: Pick<FormatCheck, 'valid' | 'typed'> = ALL_SOUND): void {
  const problems: ConfigError[] = [];
  (Array.isArray(agent.tools) ? agent.tools : []).forEach((tool, index) =>
    collectConfigErrors(problems, () => {
      // A tool entry that is not even an object was reported by the format check.
      if (typeof tool?.name === 'string' && tool.name.startsWith(MCP_TOOL_PREFIX)) {
        throw locate(
          ['agent', 'tools', index, 'name'],
          `tool names starting with "${MCP_TOOL_PREFIX}" are reserved for the tools of agent.mcps servers; rename ${quoteCapped(tool.name)}`,
        );
      }
    }),
  );
  const seen = new Map<string, number>();
  (agent.mcps ?? []).forEach((server, index) => {
    const at = ['agent', 'mcps', index];
    if (!format.typed(at)) return;
    const nameValid = format.valid([...at, 'name']);
    if (nameValid)
      collectConfigErrors(problems, () => {
        if (server.name.includes('__')) {
          throw locate(
            [...at, 'name'],
            `MCP server name ${quoteCapped(server.name)} may not contain "__" (it separates server and tool in mcp__<server>__<tool>)`,
          );
        }
        // mcp__n___list reads as server "n" and tool "_list": a trailing "_" would be taken as the tool's.
        if (server.name.endsWith('_')) {
          throw locate(
            [...at, 'name'],
            `MCP server name ${quoteCapped(server.name)} may not end with "_" (in mcp__${server.name}__<tool> it would read as the start of the tool's name); expected a name such as ${quoteCapped(server.name.replace(/_+$/, '') || 'server')}`,
          );
        }
        const previous = seen.get(server.name);
        if (previous !== undefined) {
          throw locate([...at, 'name'], `duplicate MCP server name ${quoteCapped(server.name)} (already used by agent.mcps[${previous}])`);
        }
        seen.set(server.name, index);
      });
    if (TRANSPORT_KEYS.every((key) => format.valid([...at, key]))) collectConfigErrors(problems, () => validateTransport(server, at, locate));
    // Offered name -> the allow-list entry offered under it.
    const listed = new Map<string, { tool: string; index: number }>();
    (nameValid && format.valid([...at, 'tools']) ? (server.tools ?? []) : []).forEach((tool, toolIndex) =>
      collectConfigErrors(problems, () => {
        const where = [...at, 'tools', toolIndex];
        const name = mcpToolName(server.name, tool);
        const same = listed.get(name);
        if (same?.tool === tool) throw locate(where, `${quoteCapped(tool)} is listed twice`);
        if (same) {
          throw locate(
            where,
            `${quoteCapped(tool)} would be offered as ${quoteCapped(name)}, as ${quoteCapped(same.tool)} (agent.mcps[${index}].tools[${same.index}]) would (characters other than letters, digits, _ and - become _); list one of them only`,
          );
        }
        listed.set(name, { tool, index: toolIndex });
        if (name.length > MAX_TOOL_NAME_LENGTH) {
          throw locate(
            where,
            `${quoteCapped(tool)} would be offered as ${quoteCapped(name)}, ${name.length} characters (tool names are at most ${MAX_TOOL_NAME_LENGTH}); shorten the server's name or leave the tool out`,
          );
        }
      }),
    );
  });
  throwConfigErrors(problems);
}

/** The keys of an entry that choose its transport: checked together, when each is sound. */
const TRANSPORT_KEYS = ['command', 'url', 'headers', 'env_allow'];
/** Every part sound: for entries built in memory. */
const ALL_SOUND = { valid: () => true, typed: () => true };

/** `command` or `url`, each with its own keys; an http(s) url; headers fetch can send, their templates naming env variables only. */
function validateTransport(server: McpServerSpec, at: PathSegments, locate: Locator): void {
  if ((server.command === undefined) === (server.url === undefined)) {
    const both = server.command !== undefined;
    throw locate(
      both ? [...at, 'url'] : at,
      both
        ? 'give either "command" (a stdio server) or "url" (a Streamable HTTP server), not both'
        : 'expected "command" (argv of a stdio server) or "url" (a Streamable HTTP server endpoint)',
      both,
    );
  }
  if (server.command !== undefined) {
    if (server.headers !== undefined) throw locate([...at, 'headers'], '"headers" are sent to a "url" server; a "command" server gets env_allow instead', true);
    return;
  }
  const problems: ConfigError[] = [];
  if (server.env_allow !== undefined) {
    problems.push(
      locate([...at, 'env_allow'], '"env_allow" passes variables to a server process; a "url" server has none (use headers with {{ env.NAME }})', true),
    );
  }
  collectConfigErrors(problems, () => validateUrl(server.url as string, [...at, 'url'], locate));
  collectConfigErrors(problems, () => validateHeaders(server.headers, [...at, 'headers'], locate));
  problems.push(...headerProblems(server.headers, [...at, 'headers'], locate));
  throwConfigErrors(problems);
}

/**
 * An absolute http(s) URL without templates or credentials. A password in the URL would be
 * sent in the clear to whatever logs the URL; headers hold credentials instead, read from the
 * environment (docs/security.md). Messages never quote a password or a credential query value.
 */
function validateUrl(url: string, at: PathSegments, locate: Locator): void {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || url.includes('{{')) {
    throw locate(at, `expected an absolute http:// or https:// URL without templates, such as "http://127.0.0.1:3000/mcp", got ${quotedUrl(url)}`);
  }
  if (parsed.username || parsed.password) {
    parsed.username = '';
    parsed.password = '';
    throw locate(
      at,
      `the URL carries credentials ("user:password@" before the host), which would be sent and shown with it; remove them and send them in "headers" with a secret reference instead, as headers: {Authorization: "Bearer {{ env.MCP_TOKEN }}"} (url without them: ${quotedUrl(parsed.href)})`,
    );
  }
}

/** Header values may hold `{{ env.NAME }}` templates and no other. */
function validateHeaders(headers: Readonly<Record<string, string>> | undefined, at: PathSegments, locate: Locator): void {
  checkTemplatesClosed(headers, at, locate);
  const problems: ConfigError[] = [];
  for (const [name, value] of Object.entries(headers ?? {})) {
    for (const template of templateNames(value)) {
      if (!isEnvTemplateName(template)) {
        problems.push(
          locate([...at, name], `unknown template "{{ ${template} }}": a header of an MCP server reads environment variables only, as {{ env.NAME }}`),
        );
        break;
      }
    }
  }
  throwConfigErrors(problems);
}
