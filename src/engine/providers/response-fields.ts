import type { FinishReason } from '../model/model.js';

/** Reading a provider's JSON defensively: a field of the wrong shape reads as empty, never throws. */

/** `value` as an object, or `{}` when it is not one. */
export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A token count, or 0 when absent or not a finite number. */
export function tokens(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** The unified finish reason for a provider's raw word (`other` for words it does not map). */
export function finishReasonFrom(map: ReadonlyMap<string, FinishReason['unified']>, raw: unknown): FinishReason {
  const text = typeof raw === 'string' ? raw : 'unknown';
  return { unified: map.get(text) ?? 'other', raw: text };
}

/** `{[key]: count}` when the provider reported a finite count, else `{}` (absent stays absent, not 0). */
export function detailCount<K extends string>(key: K, value: unknown): Partial<Record<K, number>> {
  return typeof value === 'number' && Number.isFinite(value) ? ({ [key]: value } as Partial<Record<K, number>>) : {};
}
