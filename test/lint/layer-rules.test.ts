import { join } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

let eslint: ESLint;

/** The layer-rule messages eslint.config.js gives `code` as if it were the file at `path`. */
async function layerErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, path) });
  return result.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
}

// Loading typescript-eslint takes a while on a busy machine: generous limits, no speed assumption.
describe('the layer rules in eslint.config.js', { timeout: 120_000 }, () => {
  beforeAll(() => {
    eslint = new ESLint({ cwd: ROOT });
  }, 120_000);

  it('stop the engine from importing the runner or verdicts', async () => {
    expect(await layerErrors('src/engine/probe.ts', "import { testRun } from '../runner/test-run.js';\nexport const x = testRun;\n")).toEqual([
      expect.stringContaining('Only bin/ and the public entries depend on src/runner'),
    ]);
    expect(await layerErrors('src/engine/loop/probe.ts', "import type { Evidence } from '../../verdicts/index.js';\nexport type X = Evidence;\n")).toEqual([
      expect.stringContaining('The engine never imports verdicts'),
    ]);
  });

  it('keep the engine on @opentelemetry/api and spans/conventions, never the SDK', async () => {
    expect(
      await layerErrors(
        'src/engine/probe.ts',
        "import { trace } from '@opentelemetry/api';\nimport { ATTR } from '../spans/conventions.js';\nexport const x = [trace, ATTR];\n",
      ),
    ).toEqual([]);
    expect(
      await layerErrors('src/engine/probe.ts', "import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';\nexport const x = BasicTracerProvider;\n"),
    ).toEqual([expect.stringContaining('@opentelemetry/api only')]);
    expect(await layerErrors('src/engine/probe.ts', "import { installTracing } from '../spans/tracing.js';\nexport const x = installTracing;\n")).toEqual([
      expect.stringContaining('only through @opentelemetry/api'),
    ]);
  });

  it('let verdicts import engine types, not engine code', async () => {
    expect(await layerErrors('src/verdicts/probe.ts', "import type { Message } from '../engine/model/message.js';\nexport type X = Message;\n")).toEqual([]);
    expect(await layerErrors('src/verdicts/probe.ts', "import { invoke } from '../engine/invoke.js';\nexport const x = invoke;\n")).toEqual([
      expect.stringContaining('engine types only'),
    ]);
  });

  it('keep spans, verdicts and skills off the runner, and all of src off bin', async () => {
    for (const folder of ['spans', 'verdicts', 'skills']) {
      expect(
        await layerErrors(`src/${folder}/probe.ts`, "import { runSuite } from '../runner/suite/run-suite.js';\nexport const x = runSuite;\n"),
      ).toHaveLength(1);
    }
    expect(await layerErrors('src/runner/probe.ts', "import '../../bin/agentcheck.js';\n")).toEqual([expect.stringContaining('nothing in src/ imports it')]);
    // The runner may use every layer.
    expect(
      await layerErrors(
        'src/runner/probe.ts',
        "import { invoke } from '../engine/invoke.js';\nimport { runChecks } from '../verdicts/index.js';\nexport const x = [invoke, runChecks];\n",
      ),
    ).toEqual([]);
  });
});
