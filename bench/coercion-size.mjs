// Per-call cost of repairing arguments as they grow to 10 MB: the plan's walk (as the build writes
// it), the reference coerceJsonArgs (walks Zod at run time) and Zod's parse alone, side by side.
// Run with `npm run bench` (builds first). Prints a Markdown table; RESULTS.md keeps the last one.
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { prepareTool } from '../packages/build/dist/src/build.js';
import { coerceJsonArgs, defineTool } from '../packages/build/dist/src/index.js';
import { generatedWalks } from './plan-walk.mjs';

const input = z.object({
  rows: z.array(
    z.object({
      id: z.string(),
      tags: z.union([z.string(), z.array(z.string())]),
      meta: z.record(z.string(), z.number()),
    }),
  ),
});
const { plan } = prepareTool(defineTool({ name: 'rows', description: 'Rows.', input }));
const [walk] = await generatedWalks([plan]);

/** Arguments of about `megabytes` MB, double-serialised: the rows array and each row's meta as JSON text. */
function argumentsOf(megabytes) {
  const rows = [];
  let size = 0;
  for (let index = 0; size < megabytes * 1_000_000; index++) {
    const row = {
      id: `row-${index}`,
      tags: ['alpha', 'beta', `t${index % 97}`],
      meta: JSON.stringify({ a: index, b: index * 2 }),
    };
    size += JSON.stringify(row).length + 1;
    rows.push(row);
  }
  return { rows: JSON.stringify(rows) };
}

function median(run, repeats) {
  run();
  const times = [];
  for (let index = 0; index < repeats; index++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { min: times[0], median: times[Math.floor(times.length / 2)], max: times.at(-1) };
}

const quick = process.argv.includes('--quick');
const sizes = quick ? [1, 2, 5] : [1, 2, 5, 10];
const repeats = quick ? 3 : 7;
const format = ({ min, median: mid, max }) => `${mid.toFixed(1)} (${min.toFixed(1)}–${max.toFixed(1)})`;
console.log('| size | plan walk ms, median (min–max) | ms per MB | coerceJsonArgs ms | Zod parse alone ms |');
console.log('| --- | --- | --- | --- | --- |');
for (const megabytes of sizes) {
  const args = argumentsOf(megabytes);
  const repaired = walk(args);
  const viaPlan = median(() => walk(args), repeats);
  const viaReference = median(() => coerceJsonArgs(args, input), repeats);
  const zodAlone = median(() => input.parse(repaired), repeats);
  console.log(
    `| ${megabytes} MB | ${format(viaPlan)} | ${(viaPlan.median / megabytes).toFixed(1)} | ${format(viaReference)} | ${format(zodAlone)} |`,
  );
}
