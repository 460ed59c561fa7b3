import { quoteCapped } from '../../config/cap-text.js';

/**
 * Why a row that lacks variable `name` (read as `{{ vars.<path> }}`) may hold it under a column a
 * template cannot read, in words ending a missing-variable message, or ''. A CSV header is taken
 * as written: `order_id ,x` names a column "order_id " with a space, and `order id` or `order.id`
 * a column no template can read (a template reads a dot as a key inside a variable).
 */
export function columnNameHint(columns: readonly string[], name: string, path: string): string {
  const spaced = columns.find((key) => key !== name && key.trim() === name);
  if (spaced !== undefined) return ` (the column ${quoteCapped(spaced)} has white space around its name: remove it from the header)`;
  const unreadable = columns.find((key) => key !== name && key.trim().replace(/[\s.]+/g, '_') === name);
  if (unreadable !== undefined) {
    return ` (the column ${quoteCapped(unreadable)} cannot be read by a template, its name holding a space or a dot: rename it ${quoteCapped(name)} in the header)`;
  }
  const dotted = columns.find((key) => key !== name && key === path);
  if (dotted !== undefined) {
    return ` (the column ${quoteCapped(dotted)} cannot be read by a template, its name holding a dot, which a template reads as a key inside a variable: rename it, e.g. ${quoteCapped(dotted.replace(/\./g, '_'))})`;
  }
  return '';
}
