// A committed, seeded generator of realistic contract sets: one tool per file, 5–25 fields each,
// with nested objects, unions, discriminated unions, string-or-array fields, records and tuples.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BUILD_PACKAGE, linkPackages, REPO } from '../scripts/packages.mjs';

export { REPO };

/** A seeded xorshift generator of numbers in [0, 1): the same seed, the same draws. */
export function random(seed) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

const FIELD_KINDS = [
  (name) => `${name}: z.string().min(1).describe('The ${name}')`,
  (name) => `${name}: z.number().int().min(0).max(1000).optional()`,
  (name) => `${name}: z.boolean().default(false)`,
  (name) => `${name}: z.enum(['low', 'medium', 'high'])`,
  (name) => `${name}: z.union([z.string(), z.array(z.string()).min(1)]).describe('One ${name}, or a list')`,
  (name) => `${name}: z.object({ id: z.string(), label: z.string().optional(), weight: z.number() })`,
  (name) =>
    `${name}: z.array(z.object({ key: z.string(), value: z.union([z.string(), z.number()]) })).max(20)`,
  (name) => `${name}: z.record(z.string(), z.number())`,
  (name) => `${name}: z.tuple([z.number(), z.number()])`,
  (name) =>
    `${name}: z.discriminatedUnion('type', [z.object({ type: z.literal('file'), path: z.string() }), z.object({ type: z.literal('url'), href: z.string(), timeout: z.number().optional() })])`,
  (name) => `${name}: z.string().nullable()`,
];

/** A record every provider profile can show: its keys are fixed. */
const ENUM_KEY_RECORD = (name) => `${name}: z.partialRecord(z.enum(['a', 'b', 'c']), z.number())`;

/**
 * The source of tool number `index`: deterministic for a given index. With `profiles`, its records
 * take enum keys, so that every provider profile can show it; with `fields`, it has that many
 * fields. (Without it the count is the first draw from a seed of `index + 1`, and xorshift's first
 * draw from a small seed is near 0: each of the first 767 tools has 5 fields, and of the first
 * 1,000, 779 have 5 and the rest 6.)
 */
export function contractSource(index, { profiles = false, fields: fieldCount } = {}) {
  const next = random(index + 1);
  const drawn = 5 + Math.floor(next() * 21);
  const count = fieldCount ?? drawn;
  const kinds = profiles
    ? FIELD_KINDS.map((kind) => (kind('x').includes('z.record(') ? ENUM_KEY_RECORD : kind))
    : FIELD_KINDS;
  const fields = Array.from({ length: count }, (_, field) =>
    kinds[Math.floor(next() * kinds.length)](`field${field}`),
  );
  return `import { defineTool } from 'toolprep';
import { z } from 'zod';

export const tool${index} = defineTool({
  description: 'Tool ${index}: does a realistic amount of work on its ${count} fields.',
  input: z.object({
    ${fields.join(',\n    ')},
  }),
  annotations: { readOnlyHint: ${index % 2 === 0} },
});
`;
}

/**
 * A throwaway project with `count` contract files under src/tools, a barrel of them, and
 * node_modules linking both toolprep packages (this repository, built), zod and the MCP SDK; with `profiles`, a
 * config that prepares every provider profile; with `fields`, that many fields per tool.
 */
export function createContractProject(count, { profiles = false, fields } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), `toolprep-bench-${count}-`));
  mkdirSync(path.join(dir, 'src/tools'), { recursive: true });
  mkdirSync(path.join(dir, 'node_modules/@modelcontextprotocol'), { recursive: true });
  linkPackages(dir);
  symlinkSync(path.join(REPO, 'node_modules/zod'), path.join(dir, 'node_modules/zod'));
  symlinkSync(
    path.join(REPO, 'node_modules/@modelcontextprotocol/sdk'),
    path.join(dir, 'node_modules/@modelcontextprotocol/sdk'),
  );
  writeFileSync(
    path.join(dir, 'package.json'),
    '{ "name": "bench-project", "private": true, "type": "module" }\n',
  );
  const barrel = [];
  for (let index = 0; index < count; index++) {
    writeFileSync(path.join(dir, `src/tools/tool-${index}.ts`), contractSource(index, { profiles, fields }));
    barrel.push(`export * from './tool-${index}.js';`);
  }
  writeFileSync(path.join(dir, 'src/tools/index.ts'), `${barrel.join('\n')}\n`);
  if (profiles)
    writeFileSync(
      path.join(dir, 'toolprep.config.ts'),
      "export default { profiles: ['openai-strict', 'anthropic', 'anthropic-strict', 'gemini', 'gemini-openapi'] };\n",
    );
  return dir;
}

/** `createContractProject`, then `toolprep generate` in it (the built CLI): a project ready to serve. */
export function generatedContractProject(count, options) {
  const dir = createContractProject(count, options);
  execFileSync(process.execPath, [path.join(BUILD_PACKAGE, 'dist/src/cli/main.js'), 'generate', '--quiet'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return dir;
}

/**
 * Measures each of `names` `repeats` times, one round after another after a warm-up round, so
 * that the machine's drift in speed (a shared VM's) weighs on every one alike.
 */
export async function roundRobin(names, repeats, measure) {
  const runs = Object.fromEntries(names.map((name) => [name, []]));
  for (const name of names) await measure(name);
  for (let run = 0; run < repeats; run++) for (const name of names) runs[name].push(await measure(name));
  return runs;
}

/** Median, min and max of a list of milliseconds. */
export function stats(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], min: sorted[0], max: sorted.at(-1) };
}

export function formatStats({ median, min, max }, digits = 0) {
  return `${median.toFixed(digits)} (${min.toFixed(digits)}–${max.toFixed(digits)})`;
}

/** The `_meta` every MCP 2026-07-28 request carries: its version and the client's capabilities. */
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** The JSON-RPC message of an HTTP answer, whether it came as JSON or as one SSE event. */
export function messageOf({ type, text }) {
  if (!type.includes('text/event-stream')) return JSON.parse(text);
  const data = text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim());
  return JSON.parse(data.at(-1));
}
