import { utimesSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createGeneratorContext } from '../../src/generate/context.js';
import { EXPLAIN_MILLISECONDS } from '../../src/generate/explain.js';
import { surfaceReportPage } from '../../src/generate/report.js';
import { copyFixture, type FixtureProject } from '../support/fixture-project.js';

/**
 * Explain is a stage over the generation (docs/decisions/0027-explain-as-a-stage.md): the
 * generator context explains the tools it generated, with the passes it ran while their contracts
 * were loaded, and never prepares a tool a second time.
 */
let project: FixtureProject | undefined;
afterEach(() => project?.remove());

/** A tool whose every preparation warns (an output MCP cannot list): the warnings count its preparations. */
const ECHO = `import { defineTool } from 'toolprep';
import { z } from 'zod';

/** Echo a text. */
export const echo = defineTool({ input: z.object({ text: z.string() }), output: z.string() });
`;
const ECHO_WARNING = /src\/tools\/echo\.ts:\d+ tool "echo", output: MCP requires an object output schema/g;

describe('each tool is prepared once, whatever the command', () => {
  let fixture: FixtureProject;
  beforeAll(() => {
    fixture = copyFixture('hidden-constraints');
    fixture.write('src/tools/echo.ts', ECHO);
    expect(fixture.cli('generate').status).toBe(0);
  });
  afterAll(() => fixture.remove());

  test.each([
    ['check --explain --no-cache', ['check', '--explain', '--no-cache']],
    ['check --explain', ['check', '--explain']],
    ['inspect --html --no-cache', ['inspect', '--html', 'report.html', '--no-cache']],
    ['inspect --html', ['inspect', '--html', 'report.html']],
  ])('toolprep %s', (_command, args) => {
    const result = fixture.cli(...args);
    expect(result.status).toBe(0);
    // One preparation, one warning: the explain stage prepares nothing.
    expect(result.stderr.match(ECHO_WARNING)).toHaveLength(1);
    if (args[0] === 'check') expect(result.stdout).toMatch(/explain: 6 hidden constraints in 6 tools/);
  });
});

describe('context.explain()', () => {
  test('the passes of the generation are the explanation: the summary counts what it reports', async () => {
    project = copyFixture('hidden-constraints');
    const context = createGeneratorContext({ root: project.dir, cache: false, write: false });
    const { generation } = await context.run();
    const explanation = await context.explain();
    expect(generation?.tools.every((tool) => tool.pass !== undefined)).toBe(true);
    expect(explanation.findings.map((finding) => `${finding.tool} ${finding.field}`).sort()).toEqual([
      'move_notes input',
      'move_notes input.folder',
      'open_note input.path',
      'pin_note input.label',
      'pin_note params.notebook',
      'tag_note input.tag',
    ]);
    expect(generation?.stats.hidden).toEqual({
      constraints: explanation.findings.length,
      tools: new Set(explanation.findings.map((finding) => finding.tool)).size,
    });
    expect(explanation.proven).toBe(0);
    // Cached for the generation: the same answer until the next one.
    expect(await context.explain()).toBe(explanation);
    expect((await context.run()).ran).toBe(false);
    expect(await context.explain()).toBe(explanation);
    expect(await context.explain({ prove: true })).not.toBe(explanation);
  });

  // A pass that tried every value holds for any budget; a tool from the cache has none, so its
  // contract is loaded and passed under the budget asked (none here: every tool is cut short).
  test.each([
    ['loaded and passed by the generation', false, []],
    ['from the cache', true, ['move_notes', 'open_note', 'pin_note', 'search_notes', 'tag_note']],
  ])('a budget of 0 ms with the tools %s', async (_case, cache, outOfTime) => {
    project = copyFixture('hidden-constraints');
    // A first context fills the cache the second one reads.
    if (cache) await createGeneratorContext({ root: project.dir, write: false }).run();
    const context = createGeneratorContext({ root: project.dir, cache, write: false });
    expect((await context.run()).generation?.stats.fromCache).toBe(cache ? 1 : 0);
    const explanation = await context.explain({ milliseconds: 0 });
    expect([...explanation.outOfTime].sort()).toEqual(outOfTime);
    expect(explanation.findings).toHaveLength(cache ? 0 : 6);
  });

  test('a pass is timed by its own thread: a thread busy beside it does not cut it short', async () => {
    project = copyFixture('hidden-constraints');
    // Each value the pass tries spins for a while on the wall clock: the thread's CPU is at most that.
    project.write(
      'src/tools/slow.ts',
      `import { defineTool } from 'toolprep';
import { z } from 'zod';

const spin = globalThis as { toolprepSpins?: number; toolprepSpinMs?: number };

/** Check a word, slowly. */
export const slowCheck = defineTool({
  input: z.object({
    word: z.string().refine((word) => {
      spin.toolprepSpins = (spin.toolprepSpins ?? 0) + 1;
      const end = performance.now() + (spin.toolprepSpinMs ?? 0);
      while (performance.now() < end);
      return word.length > 0;
    }),
  }),
});
`,
    );
    const spin = globalThis as { toolprepSpins?: number; toolprepSpinMs?: number };
    const slowPass = async () => {
      const { generation } = await createGeneratorContext({
        root: project?.dir,
        cache: false,
        write: false,
      }).run();
      return generation?.tools.find((tool) => tool.prepared.name === 'slow_check')?.pass;
    };
    spin.toolprepSpins = 0;
    expect((await slowPass())?.outOfTime).toBe(false);
    // 60% of the 250 ms budget on this thread; with a thread spinning beside it, the process's
    // clock runs about twice as fast as this thread's.
    spin.toolprepSpinMs = (0.6 * EXPLAIN_MILLISECONDS) / (spin.toolprepSpins as number);
    const busy = new Worker('for (;;);', { eval: true });
    try {
      await new Promise((resolve) => busy.once('online', resolve));
      expect((await slowPass())?.outOfTime).toBe(false);
    } finally {
      await busy.terminate();
      delete spin.toolprepSpins;
      delete spin.toolprepSpinMs;
    }
  });

  test('after an edit, the next generation is explained: its new pass, the others kept', async () => {
    project = copyFixture('hidden-constraints');
    const context = createGeneratorContext({ root: project.dir, write: false });
    await context.run();
    const before = await context.explain();
    const file = 'src/tools/notes.ts';
    project.write(file, project.read(file).replace("'Must be an absolute path'", "'Must start with /'"));
    const stamp = new Date(Date.now() + 5_000);
    utimesSync(path.join(project.dir, file), stamp, stamp);
    expect((await context.run()).ran).toBe(true);
    const after = await context.explain();
    expect(after).not.toBe(before);
    expect(after.findings.find((finding) => finding.tool === 'open_note')?.message).toBe('Must start with /');
    expect(after.findings).toHaveLength(before.findings.length);
  });

  test('the report page shows what the context found', async () => {
    project = copyFixture('hidden-constraints');
    const context = createGeneratorContext({ root: project.dir, write: false });
    const { generation, config } = await context.run();
    if (!generation?.manifest || !config) throw new Error('the fixture did not generate');
    const { findings } = await context.explain();
    const page = surfaceReportPage({ manifest: generation.manifest, config, findings });
    expect(page).toContain('<h2>Hidden constraints (6)</h2>');
    expect(page).toContain('Must be an absolute path');
  });
});

describe('the superset proof validates the documents the generation emitted', () => {
  // Advertised extension keys are in every document: each call proven carries a value the
  // `extend` schema accepts. None that the sampler writes is accepted: nothing can be proven.
  test.each([
    ['no extension keys', undefined, true],
    ['advertised extension keys', '{ schema: z.object({ tenant: z.string().min(2) }) }', true],
    ['extension keys not advertised', '{ schema: z.object({ tenant: z.string() }), advertise: false }', true],
    [
      'extension keys no sampled value satisfies',
      '{ schema: z.object({ tenant: z.string().refine(() => false) }) }',
      false,
    ],
  ])('%s', async (_case, extend, proves) => {
    project = copyFixture('hidden-constraints');
    if (extend)
      project.write(
        'toolprep.config.ts',
        `import { z } from 'zod';\n\nexport default { extend: ${extend} };\n`,
      );
    const context = createGeneratorContext({ root: project.dir, write: false });
    const outcome = await context.run();
    expect(outcome.problems).toEqual([]);
    const explanation = await context.explain({ prove: true });
    expect(explanation.problems).toEqual([]);
    expect(explanation.findings).toHaveLength(6);
    if (proves) expect(explanation.proven).toBeGreaterThan(50);
    else expect(explanation.proven).toBe(0);
  });
});
