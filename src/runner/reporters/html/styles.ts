/**
 * The page's whole stylesheet, inlined: the report must open from a CI artifact or an e-mail
 * with no network, so no external fonts or frameworks; system fonts only.
 */
export const STYLES = `
:root { --fg: #1d2330; --muted: #5b6475; --bg: #fff; --panel: #f5f7fa; --line: #d9dee7;
  --pass: #1a7f37; --fail: #cf222e; --error: #8250df; --skip: #9a6700; --notrun: #6e7781;
  --ok: #2da44e; --tool-error: #cf222e; --denied: #d4760b; --pending: #8c959f; --chat: #c9d3e3; --accent: #0969da; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --muted: #9aa5b4; --bg: #0d1117; --panel: #161b22; --line: #30363d; --chat: #2f3b4d; }
}
* { box-sizing: border-box; }
body { margin: 0; padding: 24px 32px 64px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--fg); background: var(--bg); max-width: 1280px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 32px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
/* Headings may hold a scenario id or a variant name: a long one breaks rather than widening the page. */
h1, h2, h3 { overflow-wrap: anywhere; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
nav a { margin-right: 14px; color: var(--accent); text-decoration: none; }
.note { color: var(--muted); margin: 6px 0; }
.verdict-PASSED { color: var(--pass); } .verdict-FAILED { color: var(--fail); } .verdict-INTERRUPTED, .verdict-INCOMPLETE { color: var(--skip); }
dl.totals { display: flex; flex-wrap: wrap; gap: 8px; margin: 12px 0; }
dl.totals div { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 6px 12px; min-width: 92px; }
dl.totals dt { color: var(--muted); font-size: 12px; } dl.totals dd { margin: 0; font-size: 20px; font-weight: 600; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 8px 0; }
dl.meta dt { color: var(--muted); } dl.meta dd { margin: 0; overflow-wrap: anywhere; }
/* Block tables scroll sideways inside the page instead of widening it. */
table { border-collapse: collapse; margin: 6px 0 10px; display: block; overflow-x: auto; max-width: 100%; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 10px; text-align: left; vertical-align: top; }
th { font-weight: 600; background: var(--panel); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.status { font-weight: 700; font-size: 12px; }
.status-pass { color: var(--pass); } .status-fail { color: var(--fail); } .status-error { color: var(--error); }
.status-skipped { color: var(--skip); } .status-not_run { color: var(--notrun); }
.reason { white-space: pre-wrap; word-break: break-word; }
ul.failures { list-style: none; padding: 0; } ul.failures > li { border-left: 3px solid var(--fail); padding: 4px 10px; margin: 8px 0; background: var(--panel);
  overflow-wrap: anywhere; }
ul.failures > li.failure-error { border-left-color: var(--error); }
ul.failures ul { margin: 4px 0 0; padding-left: 18px; }
svg text { fill: var(--fg); font: 12px system-ui, sans-serif; }
svg .axis { stroke: var(--line); } svg .bar { fill: var(--accent); opacity: .18; }
svg .dot { fill: var(--accent); } svg .whisker { stroke: var(--fg); stroke-width: 1.5; }
table.heat td.cell { text-align: center; min-width: 44px; }
table.heat th.rot { writing-mode: vertical-rl; transform: rotate(180deg); white-space: nowrap; font-weight: 500; }
.lanes { display: grid; grid-template-columns: minmax(180px, 28%) 1fr; gap: 3px 10px; align-items: center; margin: 6px 0 14px; }
.lanes .lane-cut { grid-column: 2; margin: 0; font-size: 12px; }
.lane-label { font-size: 12px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.lane-svg { width: 100%; height: 22px; display: block; background: var(--panel); border-radius: 3px; }
.lane-svg .chat { fill: var(--chat); }
.lane-svg .tool { stroke: none; } .lane-svg .tool.wrong { stroke: var(--fg); stroke-width: 1.5; stroke-dasharray: 3 2; }
.outcome-ok { fill: var(--ok); } .outcome-error { fill: var(--tool-error); } .outcome-denied { fill: var(--denied); } .outcome-pending { fill: var(--pending); }
.legend span { display: inline-flex; align-items: center; margin-right: 14px; font-size: 12px; color: var(--muted); }
.legend i { display: inline-block; width: 14px; height: 10px; margin-right: 5px; border-radius: 2px; }
.legend i.wrong { border: 1.5px dashed var(--fg); }
.filters { margin: 8px 0; display: flex; gap: 16px; align-items: center; }
.filters input[type=search] { padding: 4px 8px; min-width: 280px; border: 1px solid var(--line); border-radius: 4px; background: var(--bg); color: var(--fg); }
tr.hidden { display: none; }
details summary { cursor: pointer; color: var(--accent); }
details.transcript { margin: 4px 0; font-size: 12.5px; } .lanes details.transcript { grid-column: 1 / -1; }
details.transcript ol { margin: 4px 0; padding-left: 24px; } details.transcript li { margin: 2px 0; }
.msg-tool { color: var(--muted); } .msg .call { margin-left: 12px; }
/* Tables that must fit the page: a real table as wide as the page at most, heads that wrap,
   long names broken anywhere rather than pushing the table wider. */
table.fit { display: table; width: 100%; max-width: 100%; table-layout: auto; }
table.fit th { white-space: normal; } table.fit td.wrap, table.fit th.scenario { overflow-wrap: anywhere; word-break: break-word; }
table.paired td.num, table.paired th.num { padding: 4px 6px; }
table.paired td.num .note { margin: 0; white-space: nowrap; }
details[data-flip] { overflow-wrap: anywhere; }
table.matrix th .variant-name { overflow-wrap: anywhere; }
table.matrix th.scenario { font-weight: 500; background: none; min-width: 12ch; max-width: 40ch; }
table.matrix td.cell { text-align: center; white-space: nowrap; }
table.matrix td.cell-pass { background: rgba(26, 127, 55, .10); } table.matrix td.cell-fail { background: rgba(207, 34, 46, .10); }
table.matrix td.cell-error { background: rgba(130, 80, 223, .12); } table.matrix td.cell-mixed { background: rgba(154, 103, 0, .12); }
table.matrix a.run-link { text-decoration: none; } table.matrix a.run-link:hover { text-decoration: underline; }
/* One link per repeat: they wrap inside the cell, so a cell of hundreds of repeats grows down, not across
   (the scenario column keeps a readable minimum beside such cells). */
table.matrix .repeats { font-size: 11.5px; white-space: normal; } table.matrix .repeats .run-link { margin: 0 2px; }
table.matrix tfoot th, table.matrix tfoot td { border-top: 2px solid var(--line); }
.status-mixed { color: var(--skip); }
details.delta pre { text-align: left; white-space: pre-wrap; overflow-wrap: anywhere; max-width: 36ch; margin: 4px 0; font-weight: 400; }
td.transcript-cell { min-width: 12ch; max-width: 60ch; }
tr:target { outline: 2px solid var(--accent); outline-offset: -2px; }
`;
