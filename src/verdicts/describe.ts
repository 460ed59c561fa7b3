import { cutLength } from '../config/cap-text.js';
import type { ToolCall } from './evidence-types.js';

/** Longest value shown in a reason; longer ones end in "...". */
const MAX_SHOWN = 80;

/** A value as a reason shows it: compact JSON, cut at `max` characters. */
export function show(value: unknown, max = MAX_SHOWN): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, cutLength(text, max - 3))}...` : text;
}

/** "lookup_order x2, send_email x1" in first-call order, or "no tool calls". */
export function summarizeCalls(calls: readonly ToolCall[]): string {
  if (calls.length === 0) return 'no tool calls';
  const counts = new Map<string, number>();
  for (const call of calls) counts.set(call.name, (counts.get(call.name) ?? 0) + 1);
  return [...counts].map(([name, count]) => `${name} x${count}`).join(', ');
}

/** "once", "2 times". */
export function times(count: number): string {
  return count === 1 ? 'once' : `${count} times`;
}

/** "1 call", "3 calls". */
export function plural(count: number, noun: string): string {
  return `${count} ${nounFor(count, noun)}`;
}

/** The noun as it agrees with a count said before it: "call" for 1, else "calls". */
export function nounFor(count: number, noun: string): string {
  return count === 1 ? noun : `${noun}s`;
}

/** The verb "was" or "were", agreeing with a count: "the 1 call was", "the 2 calls were". */
export function wasOrWere(count: number): string {
  return count === 1 ? 'was' : 'were';
}
