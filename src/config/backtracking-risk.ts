import { atomEnd, groupBodyStart, quantifierAt, skipClass } from './regex-syntax.js';

/*
 * The exponential-backtracking shapes of a pattern (docs/security.md): a repeated group that
 * itself repeats, unless a delimiter splits its repetitions one way only, and a repeated
 * alternation whose branches can match the same text.
 */

interface Group {
  /** Index in the pattern of the group's first body character. */
  start: number;
  hasQuantifier: boolean;
  /** Start offsets of the group's top-level alternatives. */
  branches: number[];
}

/** A description of the exponential-backtracking shape found in `pattern`, or null. */
export function backtrackingRisk(pattern: string): string | null {
  const stack: Group[] = [{ start: 0, hasQuantifier: false, branches: [0] }];
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i];
    if (ch === '\\') {
      i += 2;
      continue;
    }
    if (ch === '[') {
      i = skipClass(pattern, i);
      continue;
    }
    if (ch === '(') {
      const bodyStart = pattern.startsWith('(?', i) ? groupBodyStart(pattern, i) : i + 1;
      stack.push({ start: bodyStart, hasQuantifier: false, branches: [bodyStart] });
      i = bodyStart;
      continue;
    }
    if (ch === '|') {
      stack[stack.length - 1].branches.push(i + 1);
      i++;
      continue;
    }
    if (ch === ')' && stack.length > 1) {
      const group = stack.pop()!;
      const quant = quantifierAt(pattern, i + 1);
      if (quant.repeats) {
        const body = pattern.slice(group.start, i);
        if (group.hasQuantifier && (group.branches.length > 1 || !(startsWithDelimiter(body) || endsWithDelimiter(body)))) {
          return 'has a nested quantifier (a repeated group that itself repeats), which can backtrack exponentially';
        }
        const branches = group.branches.map((start, index) => pattern.slice(start, index + 1 < group.branches.length ? group.branches[index + 1] - 1 : i));
        if (branchesOverlap(branches)) return 'repeats an alternation whose branches can match the same text, which can backtrack exponentially';
      }
      const parent = stack[stack.length - 1];
      if (group.hasQuantifier || quant.repeats) parent.hasQuantifier = true;
      i = i + 1 + quant.length;
      continue;
    }
    const quant = quantifierAt(pattern, i);
    if (quant.length && quant.repeats) stack[stack.length - 1].hasQuantifier = true;
    i += quant.length || 1;
  }
  return null;
}

/**
 * True when every repetition of `body` must begin with a literal character that none of its
 * repeated parts can match (`(_[a-z]+)*`, `(,\d+)*`): repetitions then cannot be split two
 * ways, so the nested quantifier is linear.
 */
function startsWithDelimiter(body: string): boolean {
  const first = firstAtom(body);
  if (first === null || first === '.' || first.startsWith('[') || /^\\[dDwWsSbBpPu]/.test(first)) return false;
  if (quantifierAt(body, first.length).length) return false;
  for (const atom of repeatedAtoms(body.slice(first.length))) if (atomsOverlap(first, atom)) return false;
  return true;
}

/**
 * The mirror of startsWithDelimiter: every repetition ends with a literal character none of its
 * repeated parts can match (`(\d{1,3}\.){3}`, `([a-z]+,)*`), so repetitions cannot be split two
 * ways either.
 */
function endsWithDelimiter(body: string): boolean {
  const last = lastAtom(body);
  if (last === null || last === '.' || last.startsWith('[') || /^\\[dDwWsSbBpPu]/.test(last)) return false;
  for (const atom of repeatedAtoms(body.slice(0, body.length - last.length))) if (atomsOverlap(last, atom)) return false;
  return true;
}

/** The last atom of `body` when it is a plain one with no quantifier of its own, else null. */
function lastAtom(body: string): string | null {
  let last: string | null = null;
  let i = 0;
  while (i < body.length) {
    const end = atomEnd(body, i);
    const quant = quantifierAt(body, end);
    const atom = body.slice(i, end);
    last = quant.length || atom.startsWith('(') || atom === '^' || atom === '$' ? null : atom.length === 1 && atom !== '.' ? escapeChar(atom) : atom;
    i = end + quant.length;
  }
  return last;
}

/** The atoms of `body` that carry a quantifier; a quantified group counts as matching anything. */
function repeatedAtoms(body: string): string[] {
  const atoms: string[] = [];
  let i = 0;
  while (i < body.length) {
    const end = atomEnd(body, i);
    const quant = quantifierAt(body, end);
    if (quant.length) atoms.push(body[i] === '(' ? '.' : body.slice(i, end));
    // Atoms inside groups count too: (x(y+))* repeats y.
    if (body[i] === '(') atoms.push(...repeatedAtoms(body.slice(i + 1, end - 1)));
    i = end + quant.length;
  }
  return atoms;
}

/** True when two branches could both start matching at the same character. */
function branchesOverlap(branches: string[]): boolean {
  if (branches.length < 2) return false;
  const firsts = branches.map(firstAtom);
  for (let a = 0; a < firsts.length; a++) {
    for (let b = a + 1; b < firsts.length; b++) {
      if (firsts[a] === null || firsts[b] === null) continue;
      if (atomsOverlap(firsts[a]!, firsts[b]!)) return true;
    }
  }
  return false;
}

/** The first atom of a branch as a regex source, '' for an empty branch (never overlaps), null when unknown. */
function firstAtom(branch: string): string | null {
  if (branch === '') return null;
  const ch = branch[0];
  if (ch === '\\') return branch.slice(0, 2);
  if (ch === '[') return branch.slice(0, skipClass(branch, 0));
  // A group, anchor or lookaround at the start: assume the worst.
  if (ch === '(' || ch === '^' || ch === '$') return '.';
  return ch === '.' ? '.' : escapeChar(ch);
}

const SAMPLE = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)).concat(['é', 'ß', '中', '\u00a0']);

function atomsOverlap(a: string, b: string): boolean {
  if (a === b) return true;
  let left: RegExp;
  let right: RegExp;
  try {
    left = new RegExp(`^(?:${a})`, 's');
    right = new RegExp(`^(?:${b})`, 's');
  } catch {
    return true;
  }
  return SAMPLE.some((ch) => left.test(ch) && right.test(ch));
}

function escapeChar(ch: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(ch) ? `\\${ch}` : ch;
}
