// BENCHMARKS.md from bench/results/latest.json (and peers.json): every target of the performance
// issue, its figure, the command behind it, and what was tried for the targets missed.
import { fmt } from './lib.mjs';

/** Span recording per scenario before this round's changes, `node bench/spans.mjs` on commit 02ebe4f on a busy machine: used only when the baseline cannot be measured beside the current code. */
export const SPANS_BASELINE_US = 62;

const pct = (value) => `${(value * 100).toFixed(1)}%`;
const x = (value) => `${fmt(value, 2)}x`;
const verdict = (ok) => (ok === null ? 'not measured' : ok ? 'met' : '**missed**');

/** What was tried for each target, printed under "Missed" when the figure misses it. */
const TRIED = {
  floor:
    "Streamed report.json and row-at-a-time secret scrubbing, planned runs let go as they finish, batched spans.jsonl writes, no per-span attribute copy, precompiled schemas, the mocks' interceptor and cassettes loaded only by runs that use them. On 2026-11-26: the CLI is bundled (esbuild), secret scrubbing copies only what holds a secret, the environment is copied once per suite instead of read through process.env per run, each message's gen_ai JSON is made once per run, the tool catalogue and the YAML depth/number checks no longer allocate per value or per scenario, and the table's modules load only with the table reporter. Measured on a quiet machine: about 0.9 s -> 0.75-0.8 s for agentcheck against 0.26-0.27 s for the floor (3.4x -> about 2.9x). What is left is spread thin, none above 5% of the run: loading and checking 1,000 scenarios (about 20% of the time; the floor parses the YAML and checks nothing), garbage collection (about 13%), the engine loop's promises, abort signals and span objects, the verdicts reading spans back, and module loading (about 75 ms for run). Halving it would take running scenarios on both cores (worker threads), a change of the runner's design rather than a tuning step. Later that day: the recursion guard's AsyncLocalStorage, which switched on Node 20's promise hooks for every run, is entered only for a caller's own Model; the ratio moved within noise (2.74-2.76x). Two processes each running half of the suite at once on the two cores (the test a worker-thread runner would have to pass) took 0.74-0.77 s on a quiet machine, no faster than one process (0.71-0.76 s): one process already keeps the second core busy, since its CPU time (about 1.05 s) exceeds its wall time, and `--no-opt` removes that extra 0.3 s of CPU without changing the wall time, so it is V8's background optimizing compiler. With `--no-opt` the two halves took 0.53 s (about 2.0x), but that trades away optimized code on longer runs. Tier-up tuning fails the same way: `--interrupt-budget=400000` (set at start with v8.setFlagsFromString) brings 1,000 scenarios to 0.64-0.66 s and 0.7 s CPU, but 5,000 scenarios go from 1.84-1.92 s to 2.02-2.03 s, about 18% more per scenario, so it was not adopted. On two cores, then, a worker-thread runner would not reach 2x; what is left is less work per scenario. On the evening of 2026-11-27 the CLI became one CommonJS script run through V8's code cache (scripts/bundle-cli.mjs, bin/agentcheck.ts): a one-scenario run went from about 0.22 s to 0.14-0.15 s of CPU, and the 1,000-scenario suite from 0.87-0.91 s to 0.80-0.84 s wall (1.36-1.42 s to 1.25-1.27 s CPU, alternated three times each against the code before, 2dbac49); the ratio moved to about 2.7-2.95x, by how fast the floor ran in that bench run. Later on 2026-11-27, on a faster machine of this kind (an AMD EPYC; `node -e ''` 40-48 ms), the bench gave 2.65-2.81x (0.57-0.63 s against 0.22-0.23 s); the code of that evening's start (a2f2b1b) and of its end, alternated with a code cache of their own each, took 0.60 and 0.61 s wall and the same CPU, so the session's hardening (about 70 commits of input checks) did not move it. V8 flags were tried again: `--maglev` (V8 11.3's mid-tier compiler, experimental in Node 20) gave about 7% less, not adopted in a test harness; a larger young generation (`--max-semi-space-size`, `--min-semi-space-size`) and `--single-threaded-gc` gave nothing or worse. A profile of the 1,000-scenario run: garbage collection about 15-18%, loading and checking the suite about 140 ms (validate alone: 0.24 s against 0.10 s for one scenario), the rest spread thin. One finding on the way: a command's code cache entry holds what its first process compiled, so an entry written by a heavy run (the test suite's first `run`) made a one-scenario run start about 50 ms slower (0.14 against 0.09 s) than an entry written by a plain run; the bench's own first run writes its entries after the build. Later on 2026-11-27, with timing probes in the CLI rather than a profiler: node itself 44 ms, the CLI to its command 24 ms, loading the 1,000 scenarios 120-150 ms, the runs 320-360 ms, the reports 17-30 ms, and about 10 ms for the kernel to tear the process down (the same with process.exit). The loading runs cold: js-yaml takes 20 ms for a file it parses in 2.5 ms once warm, and the checks of each scenario run mostly in V8's interpreter; --always-sparkplug and --no-lazy-feedback-allocation gave nothing (0.59 s against 0.57 s). The suite's content hash now hands sha256 64 KB batches instead of two native calls per scenario (about 1 ms). Late on 2026-11-27 a cache of parsed YAML (large suite files kept as JSON, keyed by the file's path and its text's hash) was tried and dropped: `validate` on the 1,000-scenario suite took 187.5 ms with it against 189.1 ms without (20 alternations), since the CLI's code cache already spares js-yaml's compile (a script that compiles js-yaml from source takes 52 ms for the same files, which had misled the estimate). That session's end and its start (c162691a), alternated 12 times on the 1,000-scenario suite, took 696 and 683 ms (about 2% more, after some 30 commits of input checks and fixes; `validate` alone 231 against 236 ms); the machine was slower than at the earlier runs (the old code 0.68 s against 0.63 s). On 2026-11-28 two findings about the code cache itself: V8 drops the bytecode of functions idle over a few garbage collections, the bundle's top level first, so the entry a long process wrote at exit (the README's `run scenarios/`, the MCP server, the test suite's first run) lacked it, and every later start of that command compiled the 2.5 MB top level again: a one-scenario run took 0.17 s instead of 0.11 s after such an entry. The CLI now sets `--no-flush-bytecode` before its first compile. And an entry written by a process that failed (a config error) held little of the script; it is now marked partial and replaced once by the next process that succeeds (0.12 -> 0.10 s). Neither moves the 1,000-scenario floor (2.83x in the bench of 01:10, 0.67 s against 0.24 s), whose own first run writes a whole entry. They did help the test suite, whose first `run` after a build is a long one: with the end-to-end tests' CLI processes also cut from about 530 to about 470, its CPU went from 213-222 s to 187-195 s on 2 cores (vitest 113-119 s -> 98 s wall). On 2026-11-28, later: the span path's changes (see spans) left the 1,000-scenario run within noise of the code before them (alternated 10 times: 0.68 against 0.72 s wall, 1.12 against 1.11 s CPU), on a machine slower than at the previous bench (the code before took 0.72 s where it had taken 0.67 s). On 2026-11-28 (a later session): the scenario files' parsed values are kept between runs (node_modules/.cache/agentcheck/yaml, src/config/parsed-yaml-cache.ts; docs/cli.md, Schema cache). Timed inside the CLI, js-yaml read the first 60 KB file of the 1,000-scenario suite in 11-13 ms, the next ones in 1.5-5 ms (about 40 ms for the ten), and a 640-scenario file in 17-24 ms, all cold; JSON.parse of a kept value takes about 1 ms. Alternated 8 times, a 1,000-scenario run took 0.605 s against 0.67 s wall (median; CPU 0.99 against 1.06 s), and loading the suite went from 121-148 ms to about 96 ms: more than the parse itself, since the objects JSON.parse makes are cheaper for the checks after it and leave less garbage. The cache tried on 2026-11-27 was judged by `validate` alone; these timings are of the parse. The bench now runs agentcheck once before its alternations (a user's second run of a suite) and also measures every alternation with the cache emptied first (the row below the target's). What is left: loading and checking the scenarios apart from the parse (about 95 ms, cold code), the runs (about 320 ms), garbage collection, and the CLI's start (node 44 ms, the bundle's code cache about 25 ms). On 2026-11-28 (a later session) the run path changed only by the span store's sort (see spans). A profile of the 1,000-scenario run (three runs, warm caches): loading and checking the suite about a sixth, garbage collection about a tenth, and no function of the runs above about 3% of the whole (serialising span records, the report row, secret scrubbing, the engine's message conversion, the per-run set-up of tools and prompt security, each 1-3%). The code cache of `run` deserialises in about 7 ms (1.5 MB, the same size whether a 1- or a 1,000-scenario run wrote it).",

  cold: "Commands import lazily, one per command; every schema the CLI validates at run time is precompiled at build time, one module per schema; user tool schemas are compiled once and cached on disk (AGENTCHECK_CACHE_DIR); the OpenTelemetry SDK loads only for OTLP export; the interceptor of mocks only for runs with mocks or cassettes. On 2026-11-26: the CLI is bundled with esbuild into ES module chunks (scripts/bundle-cli.mjs, one chunk per lazily loaded command or feature), so a cold start reads a few dozen files instead of about 200 modules; validate no longer loads the external-agent engine, and node:v8 loads only where a flag is set. module.enableCompileCache() would help further but needs Node >= 22.1. On 2026-11-27 validate checks more at load (skill refs beside the other problems, JSON Schema formats and defaults of tool parameters, mock headers and URLs), about 2 ms more on a cold start, which puts it at 2.03-2.09x, just over the line; a profile shows no single cost to take back (the precompiled format validators about 5 ms, the user tool schemas read from the disk cache about 4 ms, module loading the rest). Later that day the generated validator code (the precompiled validators of the build and the entries of the schema cache) runs through the V8 code cache, kept beside the schema cache (src/config/code-cache.ts): the agent-build validator alone took about 3.5 ms to load and 4 ms to compile on its first call, and about 1 ms from the cache; validate gained about 6 ms (A/B of alternating cold starts, 114-115 ms against 108-110 ms median). The figures are with warm caches, as a builder agent finds them on its second and later runs; the first run after a build or an upgrade compiles and writes the entries. On the evening of 2026-11-27 the CLI became one CommonJS script (dist/bin/cli.cjs, without whitespace) that a small CommonJS launcher runs through the V8 code cache, one entry per command: Node 20 compiles ES modules anew at every start, and loading the 80 chunks was about a third of a cold command. Medians of 20 alternated cold starts against the code before (2dbac49): test-run about 145 -> 115 ms, validate 131 -> 112 ms, --help 88 -> 89 ms (the whole script and its entry are read; node:crypto no longer loads at start). On 2026-11-28 `--help` measured 1.45x in the bench run at 05:20, 1.51x in the one at 06:04 (the figures above) and 1.455x and 1.467x in the cold-start bench run alone twice right after it (73-74 ms against 50-51 ms): at the line, within about 3 ms of spread. About 14 ms of its 24 ms over an empty node process is V8 reading the code cache entry of the CLI script (811 KB for `--help`: the 2.6 MB of the script hold thousands of functions, each with its own entry data even when not compiled); splitting the CLI into a script per command would shrink it, a change of the build rather than a tuning step. On 2026-11-28 (a later session) `--help` and `agentcheck <command> --help` print the help text the build renders (dist/bin/help.json, bin/prerendered-help.ts) when stdout is not a terminal, without loading the CLI script: about 50 ms against 47 ms for `node -e ''` (1.05-1.13x in alternations); a terminal gets help rendered by the CLI, wrapped to its width, and a help.json of another build of the script is never used.",

  spans:
    "Batched spans.jsonl writes, no per-span attribute copy, secret names remembered, an in-house span behind @opentelemetry/api that ends straight into a SpanRecord (the SDK is loaded only for OTLP export). On 2026-11-26: the run's secret scrubbing of each finished span copies only attributes that hold a secret (most spans are shared as they are), and the credential-shape patterns run only on text that has their mark. Later that day a fix for short writes on a full disk first encoded every spans.jsonl batch twice (34 us per scenario); the batch now goes to Node as text and is encoded only to finish a short write (30-31 us again). On 2026-11-27 at 12:40 the bench gave 31.4-33.0 us on a machine slower than in the morning (`node -e ''` 59-60 ms against 55 ms): the code of that morning (b9d28a7) and of the end of the day, alternated three times each with `node bench/spans.mjs` in each checkout, gave 31.3-32.1 us and 30.6-32.4 us, so the difference from the morning's 29.4 us is the machine, not the code (which now also scrubs secrets URL-encoded in lower case and with + for spaces). Later on 2026-11-27 the bench ran on another machine of this kind (an AMD EPYC instead of an Intel Xeon; `node -e ''` 40-48 ms instead of 60-65 ms) and gave 22.7 us, under half of the stored 62 us; but the code before this round, measured beside it, took 36.9-38.6 us there: the 62 us came from a slower machine. Since then the bench builds that code (bench/baseline.mjs) and measures both alternately in one run, so the ratio no longer depends on the day's machine; it gave 24.4 us against 36.9 us (66%). Serialising the records to JSON is about 14 us of the 24: a scenario's 7 records are about 7.4 KB, most of it the gen_ai message attributes, which are JSON text inside JSON and so escaped character by character; the spans.jsonl format fixes what is written. Later on 2026-11-27: JSON.stringify of freshly parsed copies of the same 7 records takes 11.3 us, so the serialisation costs what the format writes (about 1.5 ns per character, 50 ns per attribute key), not the records' shape; a serializer caching each key's JSON and the 1 KB resolved config was slower (12.0 us, 16.0 us once the text is flattened for the write). Writing the text costs 2.9 us per scenario, 0.7 us of it the check for a short write. Half of 34-37 us would leave about 4 us for the 7 spans themselves. Late on 2026-11-27 a profile of bench/spans.mjs gave JSON serialisation about 47% of the time and the writes about 25%; span objects, ids (already drawn from a 4 KB random pool) and secret scrubbing are the rest. On 2026-11-28 the span path went from about 23.3 to about 19-20 us per scenario (alternated with the code before, five times each: medians 23.7 against 20.3 us on a busy machine), 50-54% of the code before this round in the bench's own alternation (51.6% in the run above): records of agentcheck's own spans (OwnSpanRecord) are written field by field, since their ids, kind and status need no escaping (JSON.stringify's walk of the record's keys was about 2 us); spans.jsonl lines are encoded straight into a 256 KB batch (no text to flatten, no scan for its byte length; 256 KB cost about 1 us less than 64 KB, 1 MB more); ids are slices of one hex string per random pool; a trace reads its times on its root's anchored clock, as the SDK does (one Date.now per trace). Tried and dropped: a spread copy of a span's start attributes (18.0 us in this bench, but a 5,000-scenario suite took 13% longer, since the engine adds a reply's attributes after the start); Object.assign of start attributes found valid (no gain). Where the rest goes, by stages timed in one process: span objects, the store and scrubbing about 4.7 us, JSON about 10 us (about 40 ns per attribute key and value whatever their text: attribute objects with the values replaced by 0 take 3.7 us, with the escaping characters removed 7.0 us against 7.3), encoding about 2 us, and the kernel's write into the page cache about 3 us (the same bytes to /dev/null cost nothing). On 2026-11-28 (a later session) the span store keeps a trace's spans in start order as they start (a span's record takes its place when it ends), so taking a trace sorts only when a span was given an earlier start time; the sort was about a tenth of a profile of this bench. Five alternations against the code before: 20.5 against 21.0 us per scenario.",

  memory:
    "report.json streamed; when the reporters are table and/or json (the default) finished rows wait in a temporary file in the output folder and are streamed into report.json, while the table keeps only counts, failing rows and compact passing rows; agentcheck run sets V8's --heap-growing-percent=30 (without it V8 lets the heap grow to about 4x the live set before collecting). md, junit, html and GitHub Actions still keep every row.",
  peers:
    "Measured this session on a quiet machine (the previous figures, 1.4-2.2x wall, came from a machine loaded enough that agentcheck's 1,000 cases took 39 s of wall for 3.3 s of CPU). On a quiet machine promptfoo 0.121.20 runs 1,000 cases in about 3.1 s, not the 8.5 s the issue measured, so the 20x aim would need agentcheck at about 0.15 s for 1,000 scenarios: less than node's own start-up plus loading the suite. agentcheck's CPU per case is about a third of promptfoo's for more work per case (a full agent loop, 7 spans, 3 checks, streamed report). The floor target (<= 2.0x a hand-written program) is the realistic bound; see floor. Measured again on 2026-11-28 on a quiet machine: promptfoo 2.41 s for 1,000 cases and 6.90 s for 5,000, agentcheck 0.62 s and 1.55 s (3.9x and 4.5x).",
  latency:
    "Measured against the process's wall time. Model calls go out with node:http on keep-alive agents when nothing has replaced fetch and the run has no mocks or cassette (those runs send theirs through the engine's fetch), one connection per concurrent slot. On 2026-11-26: the bundled CLI and the lighter run path moved the first model request from about 0.25 s to about 0.23 s after the process starts. Where the rest goes (request times seen by the stub model): the first request leaves about 0.23 s after start (node itself about 45 ms, loading run's modules about 75 ms, loading and checking the 640 scenarios about 60 ms, then the runs' set-up), each of the 10 waves of 64 calls spreads over 60-90 ms because each answer is processed (checks, row, spans) before that slot's next call leaves, and the process exits about 30 ms after the last answer. 90% needs about 2.22 s in all; the run phase itself is at 88%. Later that day a profile showed promise hooks switched on by the recursion guard's AsyncLocalStorage (now entered only for a caller's own Model) and about 20 ms of garbage collection before the first request; the figure stayed at 84%. The spread of each wave is processing on one thread (about 1 ms per one-call scenario, a sixth of it the kernel's loopback write), so workers, not tuning, would be the next step. On 2026-11-27 a trace of every request (bench process) and of every request and answer (CLI) gave: the first wave leaves 214-224 ms after the start, the second spreads over about 55 ms (about 0.85 ms of CPU per answer before that slot's next request), later waves drift 3-5 ms each, and the process exits about 27 ms after the last answer; even with no spread or drift at all, start-up alone would hold it near 88%. That evening the code-cached CLI moved the first request to about 0.2 s after the start on a quiet machine (0.32 s and more while the machine was busy), and the bench gave 84.7%: the waves' spread is what is left. Starting a slot's next run before scoring the finished one would shorten it, but a run's checks can call a model (graders) or run a user's code, so that would put more than --concurrency calls in flight; it was not done. Later on 2026-11-27, on a faster machine of this kind (87.2-88.5%), the cost of one model call was measured layer by layer (640 calls at concurrency 64 against a 200 ms server in another process, client CPU per call): node:http's own keep-alive client 218 us, postDirectly 322-349 us (the abort signal handed to http.request, fetch's default headers, decoding the body), postJsonWithRetry 380-386 us (a per-attempt timer and AbortController), the OpenAI model 415-427 us (the request body, mapping the reply). A one-call run on the scripted model costs about 0.2 ms; the same run over HTTP about 0.95 ms in the bench. Each wave's spread (60-69 ms) is 64 such runs on one thread; trimming the provider layers to node:http's own cost would shorten it by about 10 ms, while 90% needs about 50 ms less in all (first request at 150-170 ms, spread, about 25 ms from the last answer to exit). The per-call import of node:http, which copied the module's exports at every call in the bundled CLI, was removed on the way (within noise). Later on 2026-11-27 the bench took the median of BENCH_RUNS runs (one run's figure moved by two points between runs), and a trace with timing probes in the CLI gave: node reaches the launcher at 44 ms, the command starts at 68-70 ms, loading the 640 scenarios takes 45-52 ms (js-yaml about 18 ms of it, cold), the first run's set-up 9-11 ms, so the server sees the first request at 139-157 ms; the waves drift about 2 ms each, the last spreads over 50-60 ms (64 answers at about 0.9 ms each on one thread), and the process ends 20-25 ms after the last answer (6-7 ms of reports, about 10 ms of teardown). Per answer: 110 us from the reply to the end of the agent loop, 40 us evidence, 30 us spans and checks, 20 us the row, 33 us keeping it, 150-170 us to set up the next run, and node:http's own request and reply handling. Starting the next run before scoring the finished one would take only the scoring (about 120 us) off the next request's path, about 8 ms in all; 90% needs about 25 ms less. Late on 2026-11-27 a CPU profile of three runs gave the kernel's loopback writev of the 640 requests 83 ms (about 130 us a request), garbage collection 70 ms and the code cache 23 ms; that session's start (c162691a) and end, alternated four times, took the same wall time (2.28-2.29 s), 87-88% on a machine slower than earlier that day. On 2026-11-28 a CPU profile of three runs gave, per run: the kernel's loopback writev 93 ms (about 145 us a request, in the CLI's process), garbage collection 69 ms, each run's deadline (an AbortController and a timer) about 28 us, its provider origin check about 8 us, and report.json's row text about 17 us; per answer the critical path is still about 0.9 ms of one thread. Sending the model requests from a worker thread (the HTTP client's own cost and the writev, about 0.35 ms an answer) would take roughly 35-40 ms off the waves by estimate, short of the 50 ms that 90% needs; not tried. On 2026-11-28 (a later session), with the parsed-YAML cache (the bench's first run parses the suite, the others read its kept value) the first request leaves about 20 ms earlier, and the bench gave 88.9%. A trace of the requests as the stub model sees them, on a machine shared with other work: the first request 166-227 ms after the start, waves 203 ms apart, the last wave spread over 62-125 ms, and the process gone 28-37 ms after the last answer, 16-19 ms of which after its exit event: the kernel tearing down a process of about 130 MB (a node process holding a million small objects takes 12-15 ms to exit, an empty one 3-5 ms). 90% needs about 25 ms more on a quiet machine; what is left is the waves' spread (about 0.9 ms of one thread per answer), which a second thread for the HTTP requests would shorten by an estimated 20-30 ms. On 2026-11-28 (a later session), a timeline of the requests as the stub model sees them: the first wave leaves together (within 1-6 ms), and each later wave spreads over about 60 ms, because the process handles a wave's 64 answers one after another at about 0.9 ms each, busy for the whole spread. Handling the next request first was tried (a run's concurrency slot released when its engine turn ends, its scoring, row and spans put after a setImmediate) and changed nothing: the answers of a wave arrive spaced by the previous wave's handling, so the same work per answer sets the spread. In a profile of the steady state the kernel's loopback send of each request (writev) is about 18% of the main thread, the HTTP client's code about 15%, garbage collection about 8%, and the engine, scoring and writing the rest, spread thin. 90% needs about 35 ms less wall: roughly half the CPU per answer, or the first request about 35 ms sooner (node's own start is 40-47 ms of the 140 ms before it). A worker thread for the HTTP client would take the send and the parsing off the main thread, but the answers' messages between threads would cost a part of it back, and the test suite's msw interception works on the main thread's fetch and http; it was not tried. On 2026-11-28 (a later session), three more ways were tried, each measured with the bench's five-run median against the code before, alternated: the first request of each worker sent before the next worker's run is set up (the workers started one turn of the event loop apart: Node connects a socket on a later tick, so with all 64 started at once the first request waited for all 64 set-ups, about 30 ms of cold code) gave 89.3, 89.5 and 88.9% against 89.0, 89.1 and 89.1%, within the spread, and cost a scripted suite at --concurrency 64 about 30 ms (each turn of the loop about 0.5 ms), so it was not kept; scoring a run (evidence, checks, row, spans) put off until the process had been idle for 1 or 5 ms, its concurrency slot given to the next run as soon as the engine turn ended, took the answer-to-next-request path from 0.39 to 0.22 ms and the second wave's spread from about 43 to about 30 ms, but the later waves still spread to 50-60 ms and the deferred scoring lengthened the tail, so the efficiency did not move (88.1-88.9% against 87.5-89.1%); and a smaller young generation (--max-semi-space-size=4, which the CLI cannot set for itself once V8 has started) took 20 MB off the process and about 4 ms off its exit, within the spread. A request timeline now shows the waves' spread growing from about 35 ms (the first wave's 64 answers handled back to back, about 0.55 ms each) to 55-60 ms by the sixth wave: answers that arrive spaced are each handled in a turn of their own (about 0.75 ms of main-thread CPU each in a profile: the kernel's loopback writev about 0.11 ms, node:http's client about 0.15 ms, garbage collection, then the engine, scoring and writing, each a few per cent), and any pause during a wave stays in every later one. 90% needs about 25 ms less wall: roughly a third less CPU per answer, which only taking the HTTP client and its writes off the main thread (a worker) could give. On 2026-11-28 (a later session) that worker was built and measured: one worker thread per process, started with the first model request of a suite at --concurrency 8 or more, running the same request code as the main thread (its source text) and handing each reply back as a message. It did what the estimate said of the main thread: in-process, 1,280 calls cost the main thread 40-73 us each instead of 270 us (event-loop utilisation), and in the latency suite the main thread was busy 293-336 ms instead of 492-692 ms, with the waves spread 10-20 ms less. But the first request left 40-60 ms later (the worker's own start: a second Node environment, about 18 ms on a quiet machine and 40-60 ms on a shared one, then its cold HTTP client), and the first wave came back 15-30 ms later; sending the first wave from the main thread instead made the second wave open 64 new connections from the cold worker (about 35 ms). Alternated five times each, at nice -15 on a shared machine, it gave 75-85% against 85-87% for the code before, so it was not kept: on two cores the worker's start costs what its lighter main thread saves.",
};

/** This round's before and after, on the same busy machine (CPU or RSS, which load distorts least). */
const BEFORE_AFTER = [
  '| figure | before (02ebe4f) | previous round | this session | command |',
  '|---|---|---|---|---|',
  '| 50,000 scenarios, peak RSS | 1,465 MB | 752-785 MB | 335-352 MB | `node dist/bin/agentcheck.js run <50,000 generated scenarios> --reporter json --out <dir>` under /usr/bin/time (the default table,json: 354 MB) |',
  '| span recording per scenario (CPU) | 62 us (busy machine); 36.0-38.6 us measured beside the current code on 2026-11-27 | 28.8 us | 22.7-25.0 us on 2026-11-27, 63-67% of the code before this round measured in the same run; 19-20 us on 2026-11-28, 50-54% (JSON serialisation of the records is about half of it); later on 2026-11-28, with the span path unchanged, 17.3-18.8 us against 34.5-37.9 us in five runs: 49.0% and 49.7% in the bench runs at 05:20 and 06:04 (the latter above), 50.0%, 49.2% and 51.0% in three runs between them, so the target sits at the line, within the spread between runs; in a later session (span path unchanged) 50.6% in one bench run, 50.7% and 50.6% in two `npm run bench -- spans` runs right after, and 48.7% in the bench run of that session; in the session after it (span path unchanged) 51.4% in the bench run above, 49.7% and 51.7% in two `npm run bench -- spans` runs right after it; a profile gives writing the JSON of each record (the long message texts among its attributes escaped again) about 45% of it and encoding the lines to UTF-8 about 20%, neither with a cheaper form the JSONL format allows | `npm run bench -- spans`; the three further runs with benchSpans() of bench/spans.mjs |',
  '| cold `test-run --json` with --script: ES modules loaded (built-ins included; bundle chunks since this session) | - | 270 | 194, then 48 with the bundle, then none: one CommonJS script through the code cache (0 `in ModuleLoadMap` lines) | `NODE_DEBUG=esm node dist/bin/agentcheck.js test-run --agent fixtures/agents/support-bot.yaml --message "Refund order 1234, it arrived broken." --script fixtures/test-run/refund-script.yaml --terminal-tool create_refund --json 2>&1 >/dev/null \\| grep -c "in ModuleLoadMap"` (previous round: commit cefc5a1) |',
  '| cold `validate FILE`: ES modules loaded | - | 159 | 106, then 30 with the bundle (35 on 2026-11-27, with the added load-time checks), then none | the same with `validate fixtures/agents/support-bot.yaml` |',
  '| latency bench, process CPU | - | 1.70 s | 1.06-1.13 s | `npm run bench -- latency` |',
];

/** Renders BENCHMARKS.md. */
export function renderBenchmarks(r, peers) {
  const rows = [];
  const missed = [];
  const add = (key, what, target, measured, ok) => {
    rows.push(`| ${what} | ${target} | ${measured} | ${verdict(ok)} |`);
    if (ok === false && !missed.includes(key)) missed.push(key);
  };
  const f = r.floor;
  if (f)
    add(
      'floor',
      `1,000-scenario suite end to end through the CLI vs the same-work floor (bench/floor.mjs), alternated in one bench run`,
      '<= 2.0x floor (goal 1.5x)',
      `${x(f.ratio_wall)} wall (${fmt(f.agentcheck.wall_s)} s vs ${fmt(f.floor.wall_s)} s), ${x(f.ratio_cpu)} CPU (${fmt(f.agentcheck.cpu_s)} s vs ${fmt(f.floor.cpu_s)} s); ${f.agentcheck.passed}/${f.size} passed`,
      f.ratio_wall <= 2.0,
    );
  if (f?.agentcheck_unparsed)
    rows.push(
      `| the same, with the scenario files parsed afresh at every run (parsed-YAML cache emptied before each; not a target) | - | ${x(f.ratio_wall_unparsed)} wall (${fmt(f.agentcheck_unparsed.wall_s)} s vs ${fmt(f.floor.wall_s)} s), ${fmt(f.agentcheck_unparsed.cpu_s)} s CPU | - |`,
    );
  for (const c of r.cold?.commands ?? []) {
    if (c.target === null)
      rows.push(
        `| \`${c.name}\` cold start (not a target) | - | ${x(c.ratio_wall)} \`node -e ''\` wall (${fmt(c.wall_ms, 0)} ms), ${x(c.ratio_cpu)} CPU (${fmt(c.cpu_ms, 0)} ms) | - |`,
      );
    else
      add(
        'cold',
        `\`${c.name}\` cold start vs \`node -e ''\` (${fmt(r.cold.node.wall_ms, 0)} ms wall, ${fmt(r.cold.node.cpu_ms, 0)} ms CPU)`,
        `<= ${c.target}x`,
        `${x(c.ratio_wall)} wall (${fmt(c.wall_ms, 0)} ms), ${x(c.ratio_cpu)} CPU (${fmt(c.cpu_ms, 0)} ms)`,
        c.ratio_wall <= c.target,
      );
  }
  if (r.spans) {
    // The baseline measured beside the current code in this run (bench/baseline.mjs); the stored
    // figure only when no baseline checkout could be built.
    const baseUs = r.spans.baseline_us ?? SPANS_BASELINE_US;
    const against = r.spans.baseline_us
      ? `${fmt(baseUs, 1)} us for the code before this round (commit ${r.spans.baseline_commit}), alternated in this run`
      : `${SPANS_BASELINE_US} us, a figure stored from an earlier day (${r.spans.baseline_problem ?? 'no baseline measured'})`;
    add(
      'spans',
      'span recording per scenario (bench/spans.mjs, CPU)',
      '<= half of the code before this round',
      `${fmt(r.spans.median_us, 1)} us against ${against}: ${pct(r.spans.median_us / baseUs)} of before; ${r.spans.spans_per_scenario} spans per scenario`,
      r.spans.median_us <= baseUs / 2,
    );
  }
  const sizes = r.scale?.sizes ?? [];
  const big = sizes.find((s) => s.size === 50000);
  const marginal = r.scale?.marginal ?? [];
  const [m5, m50] = [marginal.find((m) => m.to === 5000), marginal.find((m) => m.to === 50000)];
  if (big)
    add(
      'memory',
      '50,000 scenarios: peak RSS (report.json written as a stream)',
      '<= 400 MB',
      `${fmt(big.rss_mb, 0)} MB, ${fmt(big.wall_s)} s wall, ${fmt(big.cpu_s)} s CPU, ${big.passed}/${big.rows} passed`,
      big.rss_mb <= 400,
    );
  if (m5 && m50)
    add(
      'memory',
      'marginal cost per scenario at 50,000 vs at 5,000: (t50k - t5k) / 45,000 vs (t5k - t1k) / 4,000',
      '<= 1.2x',
      `${x(m50.wall_ms / m5.wall_ms)} wall (${fmt(m50.wall_ms, 3)} vs ${fmt(m5.wall_ms, 3)} ms), ${x(m50.cpu_ms / m5.cpu_ms)} CPU (${fmt(m50.cpu_ms, 3)} vs ${fmt(m5.cpu_ms, 3)} ms)`,
      m50.wall_ms / m5.wall_ms <= 1.2,
    );
  for (const l of r.latency ?? [])
    add(
      'latency',
      `latency-bound: ${l.count} one-call scenarios, ${l.latency_ms} ms model, concurrency ${l.concurrency}; ideal N x latency / C = ${fmt(l.ideal_s)} s`,
      '>= 90% of ideal vs process wall time',
      `${pct(l.efficiency)} (process ${fmt(l.wall_s)} s wall, ${fmt(l.cpu_s)} s CPU; report duration_ms ${fmt(l.run_s)} s = ${pct(l.efficiency_run)}; ${l.connections} connections)`,
      l.efficiency >= 0.9,
    );
  for (const p of peers?.sizes ?? [])
    add(
      'peers',
      `promptfoo ${peers.promptfoo.version} vs agentcheck, ${p.cases.toLocaleString('en')} cases (npm run bench:peers)`,
      'lead 20x',
      `wall ${x(p.ratio_wall)} (${fmt(p.promptfoo.wall_s)} s vs ${fmt(p.agentcheck.wall_s)} s), CPU ${x(p.ratio_cpu)} (${fmt(p.promptfoo.cpu_s)} vs ${fmt(p.agentcheck.cpu_s)} s), peak RSS ${x(p.ratio_rss)} (${fmt(p.promptfoo.rss_mb, 0)} vs ${fmt(p.agentcheck.rss_mb, 0)} MB)`,
      p.ratio_wall >= 20,
    );

  const lines = [
    '# Benchmarks',
    '',
    'Measured by `npm run bench` (bench/run-all.mjs) and `npm run bench:peers` (bench/peers.mjs); never by timed tests.',
    `Machine: ${r.machine.cores} cores, ${r.machine.memory_gb} GB, ${r.machine.cpu}, Node ${r.machine.node}; measured ${r.measured_at}`,
    `(per benchmark: ${Object.entries(r.measured ?? {})
      .map(([name, at]) => `${name} ${at}`)
      .join(', ')}). Medians of BENCH_RUNS=${r.runs} runs unless noted.`,
    'Raw numbers: bench/results/latest.json and bench/results/peers.json. Ratios are of wall times unless',
    'noted; CPU (user + system, from /usr/bin/time) is given beside them because it is steadier on a shared machine.',
    '',
    ...(r.note ? [`**${r.note}**`, ''] : []),
    'The suites are generated by bench/generate-suite.mjs: each scenario makes 3 tool calls (two in parallel,',
    'then the terminal tool) on the scripted model, records 7 spans and runs 3 checks (tool_called with args,',
    'tool_order, output).',
    '',
    '## Against the targets',
    '',
    '| what | target | measured | |',
    '|---|---|---|---|',
    ...rows,
    '',
  ];
  lines.push(
    '### This round, before and after',
    '',
    'Before this round (commit 02ebe4f), after the previous session, and after this session; measured by hand where noted, CPU, RSS and module counts being what load distorts least.',
    '',
    ...BEFORE_AFTER,
    '',
  );
  if (sizes.length) {
    lines.push('### Suites by size', '', '| scenarios | wall | CPU | peak RSS | passed |', '|---|---|---|---|---|');
    for (const s of sizes)
      lines.push(`| ${s.size.toLocaleString('en')} | ${fmt(s.wall_s)} s | ${fmt(s.cpu_s)} s | ${fmt(s.rss_mb, 0)} MB | ${s.passed}/${s.rows} |`);
    lines.push('');
  }
  if (r.query) {
    lines.push(
      '## querySpans over 1,000,000 spans',
      '',
      '| query | matched | median |',
      '|---|---|---|',
      ...r.query.map((q) => `| ${q.name} | ${q.matched} | ${fmt(q.median_ms, 1)} ms |`),
      '',
    );
  }
  lines.push(
    '## Commands',
    '',
    'One benchmark alone: `npm run bench -- floor` (also `scale`, `cold`, `spans`, `latency`, `query`); the others keep',
    'their last figures. `BENCH_RUNS=3 npm run bench` sets the runs.',
    '',
  );
  if (f)
    lines.push(
      `- floor: \`${f.command}\`, alternated ${f.runs} times after one run that parses the scenario files and keeps their values (agentcheck wall ${f.agentcheck.wall_all.map((w) => fmt(w)).join(', ')} s; floor ${f.floor.wall_all.map((w) => fmt(w)).join(', ')} s${f.agentcheck_unparsed ? `; agentcheck with the parsed-YAML cache emptied before each run ${f.agentcheck_unparsed.wall_all.map((w) => fmt(w)).join(', ')} s` : ''})`,
    );
  for (const s of sizes)
    lines.push(`- scale ${s.size}: \`${s.command}\` (${s.runs} run${s.runs > 1 ? 's' : ''}: ${s.wall_all.map((w) => fmt(w)).join(', ')} s)`);
  for (const c of r.cold?.commands ?? [])
    lines.push(
      `- cold start: \`${c.command}\`, against \`node -e ''\`, alternated ${r.cold.runs} times (median; the schema and code caches in node_modules/.cache/agentcheck are warm after the first)`,
    );
  if (r.spans)
    lines.push(
      `- spans: \`${r.spans.command}\`: one trace of the bench suite (its 7 recorded spans) replayed ${r.spans.scenarios} times per round through the OpenTelemetry API into agentcheck's tracer (SDK spans, the span store with the suite's secret scrubbing, records), taken as a run's evidence and written to spans.jsonl as \`agentcheck run\` writes it; CPU per scenario, median of ${r.spans.rounds} rounds after a warm-up round. The engine's own work to compute attribute values is not counted. The baseline is the same command on the code before this round (commit 02ebe4f, built once by bench/baseline.mjs into node_modules/.cache/agentcheck-bench): ${r.spans.alternations ?? 1} child processes of ${r.spans.rounds} rounds each for each checkout, alternated (current ${(r.spans.all_us ?? []).map((v) => fmt(v, 1)).join(', ')} us; baseline ${(r.spans.baseline_all_us ?? []).map((v) => fmt(v, 1)).join(', ') || 'not measured'} us).`,
    );
  for (const l of r.latency ?? [])
    lines.push(
      `- latency: \`node bench/latency.mjs\`: \`${l.command}\` against a node:http OpenAI-compatible server on 127.0.0.1 (in the bench process) answering after ${l.latency_ms} ms; efficiency = N x latency / C divided by the process's wall time; the run with the median efficiency of ${l.runs ?? 1} (${(l.all_efficiency ?? [l.efficiency]).map(pct).join(', ')})`,
    );
  lines.push('- query: `node bench/query.mjs` (1,000,000 synthetic spans in 1,000 traces, in memory)');
  if (peers)
    lines.push(
      `- peers: \`npm run bench:peers\` (measured ${peers.measured_at}, ${peers.runs} run(s) per size): promptfoo installed into a temporary folder, \`${peers.promptfoo.command}\` on a local stub provider (a custom JS provider answering with one tool call) with three assertions per case (two javascript, one contains); its results file is checked (every case ran and passed its 3 assertions). agentcheck: \`${peers.agentcheck.command}\` on the same number of generated scenarios (more work per case). \`promptfoo --version\` alone: ${fmt(peers.promptfoo.version_wall_s)} s.`,
    );
  else lines.push('- peers: not measured in this run: `npm run bench:peers` installs promptfoo from the npm registry and writes bench/results/peers.json.');
  lines.push('', '## Missed, and what was tried', '');
  if (!missed.length) lines.push('Every target above is met.');
  for (const key of missed) lines.push(`- **${key}**: ${TRIED[key] ?? 'see the table above.'}`);
  lines.push('');
  return `${lines.join('\n')}\n`;
}
