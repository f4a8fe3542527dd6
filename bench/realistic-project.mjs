// A realistic large project, generated deterministically (issue 38): 180 tools in 45 files of a
// made-up operations platform, four tools a file, each with a long description and 7–12 fields
// (nested objects, enums, unions, discriminated unions, optional fields, defaults, arrays of
// objects) and an output schema, the way a real server's contracts read. Nothing is committed
// but this script: the same seed writes the same 45 files.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { BUILD_PACKAGE, linkPackages, REPO } from '../scripts/packages.mjs';
import { formatStats, random, stats } from './contracts.mjs';

const FILES = 45;
const TOOLS_PER_FILE = 4;

const AREAS = [
  'accounts',
  'alerts',
  'audits',
  'backups',
  'billing',
  'builds',
  'caches',
  'certificates',
  'clusters',
  'contracts',
  'customers',
  'dashboards',
  'databases',
  'deployments',
  'domains',
  'emails',
  'events',
  'exports',
  'features',
  'files',
  'incidents',
  'invoices',
  'jobs',
  'keys',
  'logs',
  'metrics',
  'networks',
  'notes',
  'orders',
  'pipelines',
  'policies',
  'projects',
  'queues',
  'releases',
  'reports',
  'repositories',
  'roles',
  'schedules',
  'secrets',
  'services',
  'teams',
  'tickets',
  'users',
  'volumes',
  'webhooks',
];
const VERBS = ['list', 'get', 'create', 'update'];

const SENTENCES = [
  'Use it when the user asks about a specific item by its identifier or by a name they remember.',
  'The answer is paginated: pass the cursor from the previous answer to read the next page.',
  'Only items the caller is allowed to see are returned; ask for broader access rather than retrying.',
  'Timestamps are ISO 8601 in UTC, and every amount of money is in the smallest unit of its currency.',
  'Prefer this tool over a search when the exact identifier is known, because it is cheaper and exact.',
  'Changes are audited and can be undone within thirty days from the administration console.',
  'When a field is left out, the current value is kept; pass null to clear an optional value.',
];

const FIELDS = [
  (name) =>
    `${name}: z.string().min(1).max(200).describe('The ${name} to act on, as shown in the web app (case-sensitive).')`,
  (name) =>
    `${name}: z.number().int().min(1).max(500).default(50).describe('How many ${name} to return at most; the default suits most requests.')`,
  (name) =>
    `${name}: z.boolean().default(false).describe('Whether to include ${name} that were archived or soft-deleted.')`,
  (name) =>
    `${name}: z.enum(['draft', 'active', 'paused', 'archived', 'deleted']).optional().describe('Only ${name} in this state.')`,
  (name) =>
    `${name}: z.union([z.string(), z.array(z.string()).min(1).max(20)]).optional().describe('One ${name} or a list of them.')`,
  (name) =>
    `${name}: z.object({ from: z.iso.datetime().optional(), to: z.iso.datetime().optional(), zone: z.string().default('UTC') }).optional().describe('The time window for ${name}.')`,
  (name) =>
    `${name}: z.array(z.object({ key: z.string().describe('Label key.'), value: z.union([z.string(), z.number(), z.boolean()]).describe('Label value.') })).max(50).optional().describe('Labels for ${name}, as key-value pairs.')`,
  (name) =>
    `${name}: z.discriminatedUnion('kind', [z.object({ kind: z.literal('email'), address: z.email() }), z.object({ kind: z.literal('webhook'), url: z.url(), secret: z.string().optional() }), z.object({ kind: z.literal('none') })]).optional().describe('Where to send ${name} notifications.')`,
  (name) =>
    `${name}: z.object({ field: z.enum(['name', 'created', 'updated', 'size']), direction: z.enum(['asc', 'desc']).default('desc') }).optional().describe('How to order ${name}.')`,
  (name) =>
    `${name}: z.string().nullable().optional().describe('A free-text note about ${name}; null clears it.')`,
  (name) =>
    `${name}: z.record(z.string(), z.string()).optional().describe('Extra ${name} attributes, by name.')`,
  (name) =>
    `${name}: z.object({ owner: z.object({ id: z.string(), team: z.string().optional() }), visibility: z.enum(['private', 'team', 'public']).default('team') }).describe('Who owns ${name} and who may see it.')`,
];
const NAMES = [
  'cursor',
  'limit',
  'archived',
  'status',
  'tags',
  'window',
  'labels',
  'notify',
  'sort',
  'note',
  'attributes',
  'ownership',
  'region',
  'query',
  'scope',
];

function toolSource(area, verb, seed) {
  const next = random(seed);
  const count = 7 + Math.floor(next() * 6);
  const singular = area.replace(/s$/, '');
  const name = `${verb}${singular[0].toUpperCase()}${singular.slice(1)}${verb === 'list' ? 's' : ''}`;
  const fields = Array.from({ length: count }, (_, index) => {
    const field = `${NAMES[(index + seed) % NAMES.length]}${index}`;
    return FIELDS[Math.floor(next() * FIELDS.length)](field);
  });
  const sentences = Array.from({ length: 3 }, () => SENTENCES[Math.floor(next() * SENTENCES.length)]);
  return `export const ${name} = defineTool({
  description:
    '${verb[0].toUpperCase()}${verb.slice(1)} ${area} in the workspace, with their owners, states and labels. ${sentences.join(' ')}',
  input: z.object({
    ${fields.join(',\n    ')},
  }),
  output: z.object({ ${area}: z.array(${singular}Summary), cursor: z.string().nullable() }),
  annotations: { readOnlyHint: ${verb === 'list' || verb === 'get'} },
});
`;
}

function fileSource(area, index) {
  const singular = area.replace(/s$/, '');
  const tools = VERBS.map((verb, position) => toolSource(area, verb, index * TOOLS_PER_FILE + position + 1));
  return `import { defineTool } from 'toolprep';
import { z } from 'zod';

const ${singular}Summary = z.object({
  id: z.string().describe('The ${singular} identifier.'),
  name: z.string(),
  status: z.enum(['draft', 'active', 'paused', 'archived', 'deleted']),
  updatedAt: z.string(),
});

${tools.join('\n')}`;
}

/** A throwaway project with the 45 files under src/tools and node_modules linking toolprep and zod. */
export function createRealisticProject() {
  const dir = mkdtempSync(path.join(tmpdir(), 'toolprep-bench-realistic-'));
  mkdirSync(path.join(dir, 'src/tools'), { recursive: true });
  linkPackages(dir);
  symlinkSync(path.join(REPO, 'node_modules/zod'), path.join(dir, 'node_modules/zod'), 'dir');
  writeFileSync(
    path.join(dir, 'package.json'),
    '{ "name": "bench-realistic", "private": true, "type": "module" }\n',
  );
  for (const [index, area] of AREAS.slice(0, FILES).entries())
    writeFileSync(path.join(dir, `src/tools/${area}.ts`), fileSource(area, index));
  return dir;
}

/** fixtures/large-set (178 tools in 48 contract files, shared field builders), linked the same way. */
function createLargeSetProject() {
  const dir = mkdtempSync(path.join(tmpdir(), 'toolprep-bench-large-set-'));
  cpSync(path.join(REPO, 'fixtures/large-set'), dir, { recursive: true });
  linkPackages(dir);
  symlinkSync(path.join(REPO, 'node_modules/zod'), path.join(dir, 'node_modules/zod'), 'dir');
  return dir;
}

/**
 * \`toolprep generate\` as a process on each realistic project: cold (no cache), again with nothing
 * changed, and again after one contract file changed. Returns Markdown.
 */
export function benchmarkRealisticBuild({ quick }) {
  const cli = path.join(BUILD_PACKAGE, 'dist/src/cli/main.js');
  const projects = [
    [
      'generated: 180 tools in 45 files (bench/realistic-project.mjs)',
      createRealisticProject,
      'src/tools/billing.ts',
    ],
    ['fixtures/large-set: 178 tools in 48 files', createLargeSetProject, 'src/tools/issues/issues.ts'],
  ];
  const rows = [];
  for (const [label, create, edited] of projects) {
    const dir = create();
    try {
      const time = (...args) => {
        const started = performance.now();
        execFileSync(process.execPath, [cli, ...args, '--quiet'], {
          cwd: dir,
          // check warns about near-duplicate search documents here; a failure's stderr is in the error.
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        return performance.now() - started;
      };
      const cold = [];
      const unchanged = [];
      const oneChanged = [];
      const checked = [];
      const file = path.join(dir, edited);
      for (let run = 0; run < (quick ? 1 : 3); run++) {
        rmSync(path.join(dir, 'node_modules/.cache'), { recursive: true, force: true });
        cold.push(time('generate'));
        unchanged.push(time('generate'));
        checked.push(time('check'));
        writeFileSync(file, `${readFileSync(file, 'utf8')}\n// edited ${run}\n`);
        oneChanged.push(time('generate'));
      }
      rows.push(
        `| ${label} | ${formatStats(stats(cold))} | ${formatStats(stats(unchanged))} | ${formatStats(stats(checked))} | ${formatStats(stats(oneChanged))} |`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return [
    '| project | `generate` cold ms, median (min–max) | nothing changed | `check`, nothing changed | one contract file changed |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(createRealisticProject());
