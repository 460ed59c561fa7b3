import { documentLocator } from '../config/assert-format.js';
import { ConfigError } from '../config/errors.js';
import { SourceDocument } from '../config/source.js';
import { withKeptProblems } from '../config/kept-problems.js';
import { normaliseSkillBody, validateSkillMeta, type SkillMeta } from './skill-meta.js';

/** A parsed SKILL.md: its validated front matter and its Markdown body. */
export interface SkillDocument extends SkillMeta {
  body: string;
}

const FENCE = /^---[ \t]*$/;
const EXPECTED_SHAPE = 'a SKILL.md starts with a line "---", then YAML with name and description, then a closing "---" line and the Markdown body';

/**
 * Parses SKILL.md text: YAML front matter between `---` lines, then the body. Errors are
 * ConfigErrors located at `file:line:column` with the front-matter key as their path.
 */
export function parseSkillMd(file: string, text: string): SkillDocument {
  const lines = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n');
  if (!FENCE.test(lines[0] ?? '')) {
    throw new ConfigError({ file, line: 1, column: 1 }, `missing front matter: ${EXPECTED_SHAPE}`);
  }
  const close = lines.findIndex((line, index) => index > 0 && FENCE.test(line));
  if (close === -1) {
    throw new ConfigError(
      { file, line: 1, column: 1 },
      'unterminated front matter: the "---" on line 1 has no closing "---" line after the name and description',
    );
  }

  // Pad with the opening line so the YAML parser's line numbers are the file's line numbers.
  const yaml = ['', ...lines.slice(1, close)].join('\n');
  // A number that cannot be read as written is said beside the front matter's other problems
  // (an unknown key holding it included), as in every other file (docs/cli.md, validate).
  const doc = SourceDocument.parse(file, yaml, { problems: 'keep' });
  const validated = withKeptProblems(doc, (read) => {
    const meta = read.value;
    if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) {
      const found = meta === null ? 'it is empty' : Array.isArray(meta) ? 'found a list' : `found ${typeof meta} ${JSON.stringify(meta)}`;
      throw new ConfigError({ file, line: 2, column: 1 }, `expected the front matter to be a mapping with name and description; ${found}`);
    }
    return validateSkillMeta(meta as Record<string, unknown>, documentLocator(read));
  });
  return { ...validated, body: normaliseSkillBody(lines.slice(close + 1).join('\n')) };
}
