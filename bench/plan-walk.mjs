// The plan walk as a server runs it: written as code by the build's generator (src/emit/plan-walk.ts,
// as the generated module holds it), bundled by esbuild with the runtime's leaf steps. In Node for
// sections 3 and 3c, and in workerd (section 3e), where code generation from strings is refused.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatStats, REPO, stats } from './contracts.mjs';

const dist = (file) => path.join(REPO, 'packages/build/dist', file);
const EVERY_INDEX = [0, 1, 2, 3];

/** The module text that holds each plan's walks, made from the runtime's leaf steps at import. */
async function walksSource(plans) {
  const { emitPlanWalk, emitPlanWalks } = await import(dist('src/emit/plan-walk.js'));
  const tools = plans.map((plan, index) => [String(index), emitPlanWalk(plan, EVERY_INDEX)]);
  return `import { PLAN_WALK_HELPERS } from ${JSON.stringify(dist('src/runtime/plan-steps.js'))};
import { stepsIndex } from ${JSON.stringify(dist('src/manifest/plan-walk.js'))};
const plans = ${JSON.stringify(plans)};
const factories = (${emitPlanWalks(tools)})(PLAN_WALK_HELPERS);
const walks = plans.map((_, index) => factories[index]());
/** \`applyPlan\` by the generated walk of the plan at \`index\`. */
export const walkOf = (index) => (args, inverse) =>
  walks[index][stepsIndex(plans[index], inverse)](args, { path: [], maxDepth: 64, acceptsAt: undefined });
`;
}

/** Each plan's generated walk, in this process: \`(args, inverse) => repaired\`. */
export async function generatedWalks(plans) {
  const { build } = await import('esbuild');
  const dir = mkdtempSync(path.join(tmpdir(), 'toolprep-bench-walks-'));
  try {
    writeFileSync(path.join(dir, 'walks.ts'), await walksSource(plans));
    await build({
      entryPoints: [path.join(dir, 'walks.ts')],
      outfile: path.join(dir, 'walks.mjs'),
      bundle: true,
      format: 'esm',
      platform: 'node',
      logLevel: 'error',
    });
    const { walkOf } = await import(pathToFileURL(path.join(dir, 'walks.mjs')).href);
    return plans.map((_, index) => walkOf(index));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Milliseconds per operation shown as microseconds. */
const microseconds = (result) =>
  formatStats({ median: result.median * 1000, min: result.min * 1000, max: result.max * 1000 }, 2);

/**
 * Section 3e: the repairs' cases of 3c in workerd, one Worker bundled by esbuild as a Workers build
 * would: the walk the build generates, the closures that walked there before (decision 0032's
 * fallback, kept for plans made at run time) and Zod's parse, timed inside the Worker.
 */
export async function benchmarkPlanInWorkerd({ quick }) {
  const { z } = await import('zod');
  const { build } = await import('esbuild');
  const { Miniflare } = await import('miniflare');
  const { defineTool } = await import(dist('src/index.js'));
  const { prepareTool } = await import(dist('src/build.js'));
  const { repairsInput } = await import('./per-call-input.mjs');
  const input = repairsInput(z);
  const profiles = ['openai-strict', 'anthropic-strict'];
  const { plan } = prepareTool(defineTool({ name: 'search', description: 'Search.', input }), { profiles });
  if ((plan.repairs ?? []).length !== 4) throw new Error('the plan does not hold all four repairs');
  const dir = mkdtempSync(path.join(REPO, 'node_modules/.toolprep-bench-workerd-'));
  try {
    writeFileSync(path.join(dir, 'walks.ts'), await walksSource([plan]));
    writeFileSync(
      path.join(dir, 'worker.ts'),
      `import { z } from 'zod';
import { applyPlan } from ${JSON.stringify(dist('src/runtime/apply-plan.js'))};
import { INVERSE_STEPS } from ${JSON.stringify(dist('src/manifest/profiles.js'))};
import { perOperationTimes, repairCases, repairsInput, TYPICAL_SEARCH_ARGS } from ${JSON.stringify(path.join(REPO, 'bench/per-call-input.mjs'))};
import { walkOf } from './walks.ts';
const input = repairsInput(z);
const plan = ${JSON.stringify(plan)};
const generated = walkOf(0);
export default {
  fetch() {
    let refused = false;
    try { new Function('return 1'); } catch (error) { refused = error instanceof EvalError; }
    const options = { batches: ${quick ? 5 : 15} };
    const parse = perOperationTimes(() => input.parse(TYPICAL_SEARCH_ARGS), options);
    const rows = repairCases(INVERSE_STEPS).map(([label, args, inverse]) => {
      const repaired = generated(args, inverse);
      if (!input.safeParse(repaired).success) throw new Error(label + ': the repairs did not bring the answer back');
      if (JSON.stringify(applyPlan(plan, args, { inverse })) !== JSON.stringify(repaired)) throw new Error(label + ': the closures disagree');
      return {
        label,
        generated: perOperationTimes(() => generated(args, inverse), options),
        closures: perOperationTimes(() => applyPlan(plan, args, { inverse }), options),
      };
    });
    return Response.json({ refused, parse, rows });
  },
};
`,
    );
    const built = await build({
      absWorkingDir: dir,
      entryPoints: [path.join(dir, 'worker.ts')],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      conditions: ['workerd', 'worker', 'browser'],
      write: false,
      logLevel: 'error',
    });
    const worker = new Miniflare({
      modules: [{ type: 'ESModule', path: 'worker.js', contents: built.outputFiles[0].text }],
      compatibilityDate: '2026-07-01',
    });
    try {
      const response = await worker.dispatchFetch('http://localhost/');
      if (response.status !== 200) throw new Error(`the worker failed: ${await response.text()}`);
      const { refused, parse, rows } = await response.json();
      if (!refused) throw new Error('workerd allowed code generation from strings');
      const zod = stats(parse);
      const share = (times) => `${((stats(times).median / zod.median) * 100).toFixed(1)}%`;
      return [
        `Zod's parse of the repaired arguments, in the same Worker: ${microseconds(zod)} µs. \`new Function\` there throws \`EvalError\`.`,
        '',
        '| call | generated walk, µs median (min–max) | ÷ Zod parse | closures, µs | ÷ Zod parse |',
        '| --- | --- | --- | --- | --- |',
        ...rows.map(
          ({ label, generated, closures }) =>
            `| ${label} | ${microseconds(stats(generated))} | ${share(generated)} | ${microseconds(stats(closures))} | ${share(closures)} |`,
        ),
      ].join('\n');
    } finally {
      await worker.dispose();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
