/**
 * The annotation keyword a format schema puts on a value whose type names alone would hide what
 * it takes (`skip`: "boolean or string" for true, false or a reason): a type error there says
 * these words instead (docs/cli.md, validate).
 */
export const TYPE_WORDS = 'typeWords';

/** The words of a type error at a schema that carries TYPE_WORDS; undefined for any other schema. */
export function typeWords(schema: unknown): string | undefined {
  const words = schema && typeof schema === 'object' ? (schema as { [TYPE_WORDS]?: unknown })[TYPE_WORDS] : undefined;
  return typeof words === 'string' ? words : undefined;
}
