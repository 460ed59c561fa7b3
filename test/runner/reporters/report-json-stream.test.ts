import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Redactor } from '../../../src/config/redactor.js';
import { reportJsonChunks } from '../../../src/runner/report/report-json-chunks.js';
import type { Report } from '../../../src/runner/report/report.js';
import { writeChunksAtomic } from '../../../src/runner/report/write-atomic.js';
import { JsonReporter } from '../../../src/runner/reporters/json-reporter.js';
import { redactReport } from '../../../src/runner/secrets/redact-report.js';
import { bigReport, captureStream, fixtureReport, report, row, tempOut } from './fixture-report.js';

const whole = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

describe('report.json written as a stream', () => {
  let cleanup: () => Promise<void> = async () => {};
  afterEach(() => cleanup());

  it('writes the same bytes as JSON.stringify of the whole report, one chunk per row', async () => {
    const out = await tempOut();
    cleanup = out.cleanup;
    const input = bigReport(250, 7);
    // Transcripts and awkward text: nested arrays, quotes, newlines inside strings.
    input.scenarios[3].transcript = [
      { role: 'user', content: 'line one\nline "two"\t\u2028' },
      { role: 'assistant', content: '' },
    ];
    const chunks = [...reportJsonChunks(input)];
    expect(chunks.length).toBeGreaterThan(250);
    expect(chunks.join('')).toBe(whole(input));
    await new JsonReporter().onRunEnd(input, { out: out.dir, stdout: captureStream().stream, color: false });
    expect(await readFile(join(out.dir, 'report.json'), 'utf8')).toBe(whole(input));
  });

  it('matches JSON.stringify for no rows, one row, and fields without a JSON form', () => {
    for (const input of [report([]), report([row('a.scenario.yaml', 'only')]), fixtureReport()]) {
      expect([...reportJsonChunks(input)].join('')).toBe(whole(input));
    }
    const odd = { ...fixtureReport(), stats: undefined, merged: undefined } as Report;
    (odd.scenarios as unknown[]).push(undefined);
    expect([...reportJsonChunks(odd)].join('')).toBe(whole(odd));
  });

  it('writes text larger than one write batch whole, through a temp file', async () => {
    const out = await tempOut();
    cleanup = out.cleanup;
    const target = join(out.dir, 'sub', 'big.txt');
    const chunks = Array.from({ length: 3000 }, (_, i) => `${i}:${'x'.repeat(997)}\n`);
    await writeChunksAtomic(target, chunks);
    expect(await readFile(target, 'utf8')).toBe(chunks.join(''));
  });
});

describe('redactReport', () => {
  it('gives what redactor.value gives for the whole report', () => {
    const secret = 'sk-test-0123456789abcdef';
    const redactor = new Redactor().add([secret]);
    const input = bigReport(20, 3);
    input.scenarios[2].reason = `failed with key ${secret}`;
    input.scenarios[5].transcript = [{ role: 'user', content: `use ${secret} and https://x.test/?api_key=abcdefgh123` }];
    input.suite.paths = [`dir/${secret}`];
    const expected = redactor.value(structuredClone(input));
    const scrubbed = redactReport(redactor, input);
    expect(whole(scrubbed)).toBe(whole(expected));
    expect(whole(scrubbed)).not.toContain(secret);
  });
});
