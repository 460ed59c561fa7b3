import { quoteCapped } from '../../config/cap-text.js';
import { hasTemplate, isWholeTemplate, TEMPLATE_NAME_SOURCE, textOutsideTemplates } from '../template/interpolate.js';

/**
 * Why a for_each `items` can never be a list to go over, or null: a list, or one template that
 * gives one (`{{ files }}` keeps its type), is fine; other text (a space around the template
 * too) or a mapping fails on every run with PLAN_NOT_AN_ARRAY (docs/workflows.md, STEP plans).
 */
export function forEachItemsProblem(items: unknown): string | null {
  if (Array.isArray(items) || (typeof items === 'string' && isWholeTemplate(items))) return null;
  return 'expected a list, or one template that gives one ({{ files }}); other text or a mapping is never a list to go over';
}

const NAME_ALONE = new RegExp(`^${TEMPLATE_NAME_SOURCE}$`);

/**
 * Why an if_else `condition` is the same on every run, or null (docs/workflows.md, STEP plans):
 * text without a template, or text beside its templates, is a string that never changes
 * emptiness (plain `xs` is always true), and a mapping or list keeps its size whatever its
 * templates give. A boolean, number or null is left alone: written as such, it is meant as a constant.
 */
export function conditionProblem(condition: unknown): string | null {
  const write = (name: string) => `write one template whose value decides, such as ${quoteCapped(`{{ ${name} }}`)}`;
  if (typeof condition === 'string') {
    if (!hasTemplate(condition)) {
      const text = condition.trim();
      if (condition === '') return `an empty condition is always false, so the if block never runs; ${write('found')}`;
      return `${quoteCapped(condition)} is plain text, so the condition is always true (a non-empty string); ${write(NAME_ALONE.test(text) ? text : 'found')}`;
    }
    const outside = textOutsideTemplates(condition);
    if (outside === '') return null;
    return `${quoteCapped(condition)} has text beside its templates (${quoteCapped(outside)}), so it is a non-empty string on every run, always true; write the template alone, such as ${quoteCapped(condition.match(/\{\{[^{}]*\}\}/)?.[0] ?? '{{ found }}')}`;
  }
  if (Array.isArray(condition)) {
    return `a list is ${condition.length ? 'always true (it is never empty)' : 'always false (it is empty)'} whatever its templates give; ${write('found')}`;
  }
  if (condition !== null && typeof condition === 'object') {
    return `a mapping is ${Object.keys(condition).length ? 'always true (it is never empty)' : 'always false (it is empty)'} whatever its templates give; ${write('found')}`;
  }
  return null;
}
