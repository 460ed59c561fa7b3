// An "MCP server" that never answers initialize: it reads stdin and says nothing. It writes its
// pid to SILENT_PID_FILE once running, and records in SILENT_EVENTS_FILE how it is asked to stop
// (stdin closing, SIGTERM), lingering after stdin closes so that only a signal ends it.
import { appendFileSync, writeFileSync } from 'node:fs';

const events = process.env.SILENT_EVENTS_FILE;
process.stdin.resume();
process.stdin.once('end', () => appendFileSync(events, 'stdin-end\n'));
process.once('SIGTERM', () => {
  appendFileSync(events, 'SIGTERM\n');
  process.exit(0);
});
setInterval(() => {}, 1000);
writeFileSync(process.env.SILENT_PID_FILE, String(process.pid));
