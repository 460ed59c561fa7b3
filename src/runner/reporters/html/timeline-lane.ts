import { ATTR, EVIDENCE_ATTR } from '../../../spans/conventions.js';
import { isNestedCall } from '../../../verdicts/evidence-calls.js';
import { countedToolName, isExpectedTool } from '../../stats/expected-tools.js';
import type { SpanRecord } from '../../../spans/span-record.js';
import type { ScenarioRow } from '../../report/report.js';
import { clip } from '../format/row-cells.js';
import { dataAttrs, esc } from './escape.js';
import { fmtMs } from './format.js';

/** One tool call drawn as a bar. */
export interface LaneBar {
  tool: string;
  /** ok, error, denied or pending (agentcheck.tool.outcome). */
  outcome: string;
  /** Offset from the run's start, ms. */
  start: number;
  duration: number;
  /** Made by a plan or chain, or inside another call (isNestedCall), not by the model or a flow step. */
  nested: boolean;
  /** A wrong tool call as the statistics count one: not nested, of a tool outside the scenario's expected ones. */
  wrong: boolean;
  args: string;
  result: string;
  refused: string;
}

/** One run's timeline: its tool calls and model calls relative to the run's start. */
export interface Lane {
  row: ScenarioRow;
  /** Wall time the lane spans, ms: the root span's duration or the last span's end, whichever is later. */
  extent: number;
  bars: LaneBar[];
  chats: Array<{ start: number; duration: number }>;
}

/** At most this many bars per lane; a run that loops for hundreds of calls still draws quickly. */
export const LANE_MAX_BARS = 200;

const VIEW_W = 1000;
const VIEW_H = 22;
const ARGS_MAX = 400;
const RESULT_MAX = 200;

/** Builds a lane from one trace's timeline spans (root, chat, execute_tool). */
export function buildLane(row: ScenarioRow, spans: readonly SpanRecord[]): Lane {
  const root = spans.find((span) => span.parent_id === null);
  const t0 = root?.start_ms ?? (spans.length ? Math.min(...spans.map((span) => span.start_ms)) : 0);
  const lastEnd = Math.max(t0, ...spans.map((span) => span.end_ms));
  // Span starts can be whole milliseconds while durations are fractional, so a child may seem
  // to end after its root: the lane spans both, and no bar falls off its right edge.
  const extent = Math.max(root?.ended ? root.duration_ms : 0, lastEnd - t0);
  const expected = row.expected_tools ?? [];
  const ordered = [...spans].sort((a, b) => a.start_ms - b.start_ms);
  const byId = new Map(spans.map((span) => [span.span_id, span]));
  const bars = ordered
    .filter((span) => span.name.startsWith('execute_tool'))
    .map((span): LaneBar => {
      const fullName = str(span.attributes[ATTR.toolName]) || span.name;
      // Named as the statistics count it: with its server where the scenario expects another server's tool of that name.
      const tool = countedToolName(expected, fullName);
      // As the evidence tells them: a plan's or chain's call, or one inside another call (an
      // external agent's own spans), which the statistics never count as a wrong call.
      const nested = isNestedCall(span, byId);
      return {
        tool,
        outcome: str(span.attributes[EVIDENCE_ATTR.toolOutcome]) || (span.status === 'error' ? 'error' : 'ok'),
        start: span.start_ms - t0,
        duration: span.duration_ms,
        nested,
        // As the statistics count it: an expected `mcp__a__write_note` is not another server's write_note.
        wrong: !nested && expected.length > 0 && !isExpectedTool(expected, fullName),
        args: str(span.attributes[ATTR.toolArguments]),
        result: str(span.attributes[ATTR.toolResult]),
        refused: str(span.attributes[ATTR.toolRefused]),
      };
    });
  const chats = ordered.filter((span) => span.name.startsWith('chat')).map((span) => ({ start: span.start_ms - t0, duration: span.duration_ms }));
  return { row, extent: Math.max(0, extent), bars, chats };
}

/**
 * The lane as an SVG strip on a shared time scale (`scaleMs` = the widest lane of its scenario,
 * so lanes of one scenario compare). Model calls are light bands behind the tool bars; bars are
 * coloured by outcome and dashed when the tool was not one the scenario expects.
 */
export function laneSvg(lane: Lane, scaleMs: number): string {
  const x = (ms: number) => (scaleMs > 0 ? (ms / scaleMs) * VIEW_W : 0);
  // At least 1% of the lane: a 0.1 ms tool call beside 50 ms model calls must still be seen and hovered.
  const width = (ms: number) => Math.max(10, x(ms));
  const chats = lane.chats
    .map((chat) => `<rect class="chat" x="${x(chat.start).toFixed(1)}" y="2" width="${Math.max(2, x(chat.duration)).toFixed(1)}" height="${VIEW_H - 4}"/>`)
    .join('');
  const bars = lane.bars
    .slice(0, LANE_MAX_BARS)
    .map((bar) => {
      const y = bar.nested ? 13 : 4;
      const h = bar.nested ? 7 : 14;
      const classes = `tool outcome-${/^[a-z_]+$/.test(bar.outcome) ? bar.outcome : 'ok'}${bar.wrong ? ' wrong' : ''}`;
      const attrs = dataAttrs({
        tool: bar.tool,
        outcome: bar.outcome,
        'start-ms': bar.start,
        'duration-ms': bar.duration,
        wrong: bar.wrong || undefined,
        nested: bar.nested || undefined,
      });
      return `<rect class="${classes}"${attrs} x="${x(bar.start).toFixed(1)}" y="${y}" width="${width(bar.duration).toFixed(1)}" height="${h}" vector-effect="non-scaling-stroke"><title>${esc(tooltip(bar))}</title></rect>`;
    })
    .join('');
  const label = `${lane.row.variant} #${lane.row.repeat}: ${lane.bars.length} tool call(s) in ${fmtMs(lane.extent)} ms`;
  return `<svg class="lane-svg" viewBox="0 0 ${VIEW_W} ${VIEW_H}" preserveAspectRatio="none" role="img" aria-label="${esc(label)}">${chats}${bars}</svg>`;
}

function tooltip(bar: LaneBar): string {
  const lines = [
    `${bar.tool}: ${bar.outcome}${bar.refused ? ` (${bar.refused})` : ''}${bar.wrong ? ', not an expected tool' : ''}${bar.nested ? ', nested call' : ''}`,
    `at +${fmtMs(bar.start)} ms for ${fmtMs(bar.duration)} ms`,
    `arguments: ${clip(bar.args || '{}', ARGS_MAX)}`,
  ];
  if (bar.result) lines.push(`result: ${clip(bar.result, RESULT_MAX)}`);
  return lines.join('\n');
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
