import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import { main } from '../../../src/runner/commands/main.js';
import { createReporters, REPORTER_NAMES, REPORTERS } from '../../../src/runner/reporters/index.js';
import { suiteConfigSchema } from '../../../src/runner/suite/suite-config.js';

/** The CLI's help text for `args`, captured in-process. */
async function help(args: string[]): Promise<string> {
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (chunk) => (text += String(chunk)));
  await main(['node', 'agentcheck', ...args, '--help'], { stdout, stderr: new PassThrough(), cwd: process.cwd(), env: {}, isTTY: false });
  return text.replace(/\s+/g, ' ');
}

describe('reporters index', () => {
  it('maps every name to a reporter of that name', async () => {
    for (const [name, create] of Object.entries(REPORTERS)) expect((await create()).name).toBe(name);
    expect(REPORTER_NAMES).toEqual(Object.keys(REPORTERS));
  });

  it('is the one list of names: suite config schema and CLI help are derived from it', async () => {
    expect(suiteConfigSchema.properties.reporters.items.enum).toEqual(REPORTER_NAMES);
    expect(await help(['run'])).toContain(`--reporter <list> comma list of ${REPORTER_NAMES.join(', ')}; `);
    const others = REPORTER_NAMES.filter((name) => name !== 'json');
    expect(await help(['merge'])).toContain(`comma list of ${others.join(', ')}; repeat the flag to add more (default: table; json is always written)`);
  });

  it('creates reporters in order without duplicates', async () => {
    expect((await createReporters(['json', 'table', 'json', 'junit', 'md'])).map((r) => r.name)).toEqual(['json', 'table', 'junit', 'md']);
    expect(await createReporters([])).toEqual([]);
  });

  it('rejects an unknown name with a ConfigError listing the known ones', async () => {
    await expect(createReporters(['table', 'xml'])).rejects.toThrow(ConfigError);
    await expect(createReporters(['toString'])).rejects.toThrow(`unknown reporter "toString"; expected one of: ${REPORTER_NAMES.join(', ')}`);
  });

  it('names every unknown name in one message, each once, beside an empty one', async () => {
    await expect(createReporters(['xml', 'json', 'yaml', 'xml'])).rejects.toThrow(
      `--reporter: unknown reporters "xml", "yaml"; expected one of: ${REPORTER_NAMES.join(', ')}`,
    );
    await expect(createReporters(['xml', '', 'json'])).rejects.toThrow(
      `--reporter: unknown reporter "xml" and an empty reporter name (check the comma list); expected one of: ${REPORTER_NAMES.join(', ')}`,
    );
  });
});
