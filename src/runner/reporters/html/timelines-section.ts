import type { Report, ScenarioRow } from '../../report/report.js';
import { isFailing, STATUS_LABEL } from '../format/row-cells.js';
import { section } from './cells.js';
import { dataAttrs, esc } from './escape.js';
import { fmtMs } from './format.js';
import { transcriptView } from './transcript-view.js';
import { buildLane, LANE_MAX_BARS, laneSvg, type Lane } from './timeline-lane.js';
import type { TimelineSpans } from './timeline-spans.js';
import { plural } from '../../../verdicts/describe.js';

/** At most this many scenarios get timelines. */
export const TIMELINE_MAX_SCENARIOS = 30;
/** At most this many lanes (runs) on the page in all. */
export const TIMELINE_MAX_LANES = 300;

/** The scenarios whose timelines the page draws, with their runs, and what was left out. */
export interface TimelinePlan {
  /** `omitted`: runs of that scenario not drawn (the lane budget ran out inside it). */
  groups: Array<{ id: string; rows: ScenarioRow[]; omitted: number }>;
  /** Scenarios with no timeline at all, and their runs. */
  omittedScenarios: number;
  omittedLanes: number;
  /** Trace ids of the chosen runs: the only spans worth reading. */
  traceIds: Set<string>;
}

/**
 * Picks the scenarios to draw: those with a failing run first (they are why someone opens the
 * page), then the rest in report order, within the scenario and lane caps. The scenario the lane
 * budget runs out in draws what is left of it, its failing runs first, rather than nothing: a
 * scenario of more runs than the whole budget still gets a timeline.
 */
export function planTimelines(report: Readonly<Report>): TimelinePlan {
  const byId = new Map<string, ScenarioRow[]>();
  for (const row of report.scenarios) {
    let rows = byId.get(row.id);
    if (!rows) byId.set(row.id, (rows = []));
    rows.push(row);
  }
  const ids = [...byId.keys()];
  const ordered = [...ids.filter((id) => byId.get(id)!.some(isFailing)), ...ids.filter((id) => !byId.get(id)!.some(isFailing))];
  const groups: TimelinePlan['groups'] = [];
  let lanes = 0;
  let omittedLanes = 0;
  for (const id of ordered) {
    const rows = byId.get(id)!;
    const room = TIMELINE_MAX_LANES - lanes;
    if (groups.length >= TIMELINE_MAX_SCENARIOS || room <= 0) {
      omittedLanes += rows.length;
      continue;
    }
    const drawn = rows.length <= room ? rows : firstRuns(rows, room);
    groups.push({ id, rows: drawn, omitted: rows.length - drawn.length });
    lanes += drawn.length;
  }
  const traceIds = new Set(groups.flatMap((group) => group.rows.flatMap((row) => (row.test_run?.trace_id ? [row.test_run.trace_id] : []))));
  return { groups, omittedScenarios: ids.length - groups.length, omittedLanes, traceIds };
}

/** `count` of `rows`, failing ones first, kept in report order (variant, then repeat) on the page. */
function firstRuns(rows: readonly ScenarioRow[], count: number): ScenarioRow[] {
  const chosen = new Set([...rows.filter(isFailing), ...rows.filter((row) => !isFailing(row))].slice(0, count));
  return rows.filter((row) => chosen.has(row));
}

/** Per-scenario lanes of tool calls, or a note saying why there are none. */
export function timelinesSection(plan: TimelinePlan, spans: TimelineSpans | null, fullReport = 'report.json'): string {
  const legend =
    '<p class="legend"><span><i class="outcome-ok" style="background: var(--ok)"></i>returned</span>' +
    '<span><i style="background: var(--tool-error)"></i>error</span><span><i style="background: var(--denied)"></i>denied</span>' +
    '<span><i style="background: var(--pending)"></i>pending approval</span><span><i class="wrong"></i>not an expected tool</span>' +
    '<span><i style="background: var(--chat)"></i>model call</span></p>';
  if (!spans) {
    return section(
      'timelines',
      'Tool-call timelines',
      '<p class="note" data-timelines="no-spans">No spans.jsonl beside the report, so there are no timelines. `agentcheck run` writes it to the output folder.</p>',
    );
  }
  const blocks = plan.groups.map((group) => {
    const lanes = group.rows.map((row) => {
      const traced = row.test_run?.trace_id ? spans.byTrace.get(row.test_run.trace_id) : undefined;
      return { row, lane: traced?.length ? buildLane(row, traced) : null };
    });
    const scale = Math.max(0, ...lanes.map(({ lane }) => lane?.extent ?? 0));
    const body = lanes.map(({ row, lane }) => laneRow(row, lane, scale, fullReport)).join('');
    const cut = group.omitted
      ? `<p class="note"${dataAttrs({ 'runs-omitted': group.omitted })}>${plural(group.omitted, 'more run')} of this scenario ${group.omitted === 1 ? 'has' : 'have'} no timeline here (at most ${TIMELINE_MAX_LANES} runs are drawn), to keep the page small; spans.jsonl holds them all.</p>`
      : '';
    return (
      `<div class="timeline"${dataAttrs({ scenario: group.id, 'scale-ms': scale, 'runs-omitted': group.omitted || undefined })}><h3 class="mono">${esc(group.id)}</h3>` +
      `<p class="note">0 to ${fmtMs(scale)} ms</p>${cut}<div class="lanes">${body}</div></div>`
    );
  });
  const notes: string[] = [];
  if (plan.omittedScenarios)
    notes.push(
      `${plural(plan.omittedScenarios, 'more scenario')} (${plural(plan.omittedLanes, 'run')}) ${plan.omittedScenarios === 1 ? 'has' : 'have'} no timeline here, to keep the page small; spans.jsonl holds them all.`,
    );
  if (spans.unreadable) notes.push(`${spans.unreadable} lines of spans.jsonl could not be read.`);
  const intro = '<p class="note">One lane per run, on a time scale shared by the runs of a scenario. Hover a bar for the call\'s arguments and result.</p>';
  return section(
    'timelines',
    'Tool-call timelines',
    `${intro}${legend}${blocks.join('\n')}${notes.map((text) => `<p class="note">${esc(text)}</p>`).join('')}`,
  );
}

function laneRow(row: ScenarioRow, lane: Lane | null, scale: number, fullReport: string): string {
  const attrs = dataAttrs({ 'row-id': row.id, variant: row.variant, repeat: row.repeat, status: row.status, 'trace-id': row.test_run?.trace_id ?? null });
  const sequence = lane
    ? lane.bars
        .filter((bar) => !bar.nested)
        .map((bar) => bar.tool)
        .join(' → ')
    : '';
  const label =
    `<div class="lane-label"${attrs} title="${esc(`${row.variant} #${row.repeat}: ${sequence || 'no tool calls'}`)}">` +
    `<span class="status status-${row.status}">${STATUS_LABEL[row.status]}</span> ${esc(row.variant)} #${row.repeat}` +
    `${sequence ? ` · <span class="mono">${esc(sequence)}</span>` : ''}</div>`;
  const transcript = transcriptView(row.transcript, fullReport);
  if (!lane) return `${label}<div class="note"${attrs}>no spans for this run</div>${transcript}`;
  const hidden = lane.bars.length - LANE_MAX_BARS;
  const cut =
    hidden > 0
      ? `<p class="note lane-cut"${dataAttrs({ 'bars-omitted': hidden })}>${plural(hidden, 'more tool call')} ${hidden === 1 ? 'is' : 'are'} not drawn in this lane (at most ${LANE_MAX_BARS}), to keep the page small; spans.jsonl holds them all.</p>`
      : '';
  return `${label}<div class="lane"${attrs}${dataAttrs({ 'tool-calls': lane.bars.length })}>${laneSvg(lane, scale)}</div>${cut}${transcript}`;
}
