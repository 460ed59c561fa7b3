import type { TestRunResult } from '../../test-run.js';

/** The tools the model called, numbered in first-call order, with their outcomes (for failure texts). */
export function toolCallLines(result: Pick<TestRunResult, 'tools' | 'stop_reason'>): string[] {
  if (result.tools.length === 0) return [`tool calls: none (stop_reason: ${result.stop_reason})`];
  const lines = [`tool calls (stop_reason: ${result.stop_reason}):`];
  result.tools.forEach((tool, index) => {
    const outcome = [`${tool.returned} returned`, ...(tool.errors ? [`${tool.errors} error${tool.errors === 1 ? '' : 's'}`] : [])].join(', ');
    lines.push(`  ${index + 1}. ${tool.name} x${tool.called} (${outcome})`);
  });
  return lines;
}
