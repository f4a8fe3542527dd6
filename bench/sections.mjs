// The in-process benchmarks: stateless tools/list, per call, build, and size. Each returns Markdown.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createContractProject, formatStats, generatedContractProject, REPO, stats } from './contracts.mjs';
import {
  perOperationTimes,
  repairCases,
  repairsInput,
  TYPICAL_SEARCH_ARGS,
  zodSearchInput,
} from './per-call-input.mjs';
import { generatedWalks } from './plan-walk.mjs';

// Every compiled module, run-time and build-time alike (the run-time package's dist/ is a subset).
const dist = (file) => path.join(REPO, 'packages/build/dist', file);

const perOperation = (work, options) => stats(perOperationTimes(work, options));

async function loadContracts(count) {
  const dir = generatedContractProject(count);
  const { build } = await import('esbuild');
  await build({
    absWorkingDir: dir,
    entryPoints: [path.join(dir, 'src/tools/index.ts')],
    outfile: path.join(dir, 'out/tools.mjs'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    logLevel: 'error',
  });
  const contracts = await import(path.join(dir, 'out/tools.mjs'));
  const manifest = JSON.parse(readFileSync(path.join(dir, 'toolprep.manifest.json'), 'utf8'));
  return { dir, contracts, manifest };
}

export async function benchmarkStatelessList({ counts, quick }) {
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
  const { createMcpServer } = await import(dist('src/surfaces/mcp/server.js'));
  const { createToolRuntime } = await import(dist('src/runtime/index.js'));
  const rows = [];
  for (const count of counts) {
    const { dir, contracts, manifest } = await loadContracts(count);
    try {
      const tools = manifest.tools.map(({ source: _source, size: _size, ...tool }) => tool);
      const runtime = createToolRuntime(
        {
          format: manifest.format,
          extensionKeys: manifest.extensionKeys,
          prepared: tools,
          load: Object.fromEntries(tools.map((tool) => [tool.name, () => undefined])),
          // Only listed, never called: no schema library is needed.
          adapters: [],
        },
        { handlers: Object.fromEntries(tools.map((tool) => [tool.name, () => 'ok'])) },
      );
      const listOnce = async (server) => {
        const [client, side] = InMemoryTransport.createLinkedPair();
        await server.connect(side);
        const answer = new Promise((resolve) => {
          client.onmessage = (message) => resolve(message);
        });
        await client.start();
        await client.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
        const message = await answer;
        if (!message.result?.tools?.length)
          throw new Error(`no tools listed: ${JSON.stringify(message).slice(0, 200)}`);
        await server.close();
      };
      const measure = async (makeServer) => {
        const times = [];
        const runs = quick ? 20 : 60;
        for (let run = 0; run < runs + 30; run++) {
          const started = performance.now();
          await listOnce(makeServer());
          if (run >= 30) times.push(performance.now() - started);
        }
        return stats(times);
      };
      const viaToolprep = await measure(() => createMcpServer(runtime, { name: 'bench', version: '1' }));
      const viaSdk = await measure(() => {
        const server = new McpServer({ name: 'bench', version: '1' });
        for (const [name, contract] of Object.entries(contracts))
          server.registerTool(
            name,
            { description: contract.description, inputSchema: contract.input.shape },
            async () => ({ content: [] }),
          );
        return server.server;
      });
      rows.push(
        `| ${count} | ${formatStats(viaToolprep, 2)} | ${formatStats(viaSdk, 1)} | **${(viaSdk.median / viaToolprep.median).toFixed(0)}×** |`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return [
    '| tools | toolprep ms per request, median (min–max) | SDK McpServer ms per request | SDK ÷ toolprep |',
    '| --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

/** Milliseconds per operation shown as microseconds. */
const microseconds = (result) =>
  formatStats({ median: result.median * 1000, min: result.min * 1000, max: result.max * 1000 }, 2);

/** The same input in every schema library toolprep reads, with its run-time adapter. */
async function searchInputs() {
  const { z } = await import('zod');
  const { z: z3 } = await import('zod3');
  const { z: z3v3 } = await import('zod325/v3');
  const { type } = await import('arktype');
  const v = await import('valibot');
  const { toStandardJsonSchema } = await import('@valibot/to-json-schema');
  const { zod4 } = await import(dist('src/adapters/zod4/runtime.js'));
  const { zod3 } = await import(dist('src/adapters/zod3/runtime.js'));
  const { standard } = await import(dist('src/adapters/standard/runtime.js'));
  const arktype = type({
    query: 'string >= 1',
    paths: 'string | string[]',
    limit: ['number.integer <= 100', '=', 20],
    mode: "'fast' | 'exact'",
    filters: { tags: 'string[]', 'since?': 'string', owner: { id: 'string', team: 'string' } },
    rows: type({ key: 'string', value: 'string | number' }).array(),
    target: type({ type: "'file'", path: 'string' }).or({ type: "'url'", href: 'string' }),
    weights: 'Record<string, number>',
  });
  const valibot = toStandardJsonSchema(
    v.object({
      query: v.pipe(v.string(), v.minLength(1)),
      paths: v.union([v.string(), v.array(v.string())]),
      limit: v.optional(v.pipe(v.number(), v.integer(), v.maxValue(100)), 20),
      mode: v.picklist(['fast', 'exact']),
      filters: v.object({
        tags: v.array(v.string()),
        since: v.optional(v.string()),
        owner: v.object({ id: v.string(), team: v.string() }),
      }),
      rows: v.array(v.object({ key: v.string(), value: v.union([v.string(), v.number()]) })),
      target: v.variant('type', [
        v.object({ type: v.literal('file'), path: v.string() }),
        v.object({ type: v.literal('url'), href: v.string() }),
      ]),
      weights: v.record(v.string(), v.number()),
    }),
  );
  const version = (name) =>
    JSON.parse(readFileSync(path.join(REPO, 'node_modules', name, 'package.json'), 'utf8')).version;
  return [
    [`zod ${version('zod')}`, zodSearchInput(z), zod4],
    [`zod ${version('zod3')}`, zodSearchInput(z3), zod3],
    [`zod/v3 (${version('zod325')})`, zodSearchInput(z3v3), zod3],
    [`ArkType ${version('arktype')}`, arktype, standard],
    [`Valibot ${version('valibot')}`, valibot, standard],
  ];
}

export async function benchmarkPerCall({ quick }) {
  const { coerceJsonArgs, defineTool } = await import(dist('src/index.js'));
  const { prepareTool } = await import(dist('src/build.js'));
  const doubled = {
    ...TYPICAL_SEARCH_ARGS,
    filters: JSON.stringify(TYPICAL_SEARCH_ARGS.filters),
    rows: JSON.stringify(TYPICAL_SEARCH_ARGS.rows),
    target: JSON.stringify(TYPICAL_SEARCH_ARGS.target),
  };
  const options = { batches: quick ? 5 : 15 };
  const rows = [];
  const inputs = await searchInputs();
  const plans = inputs.map(
    ([, input]) => prepareTool(defineTool({ name: 'search', description: 'Search.', input })).plan,
  );
  // Each plan's walk as the build writes it into the generated module.
  const walks = await generatedWalks(plans);
  for (const [index, [library, input, adapter]] of inputs.entries()) {
    const applyPlan = walks[index];
    for (const [label, args] of [
      ['typical', TYPICAL_SEARCH_ARGS],
      ['double-serialised', doubled],
    ]) {
      const repaired = applyPlan(args);
      const parsed = adapter.validate(input, repaired);
      if (parsed instanceof Promise || parsed.issues)
        throw new Error(`${library} refused the benchmark's arguments`);
      const viaPlan = perOperation(() => applyPlan(args), options);
      const viaReference = perOperation(() => coerceJsonArgs(args, input), options);
      const parseAlone = perOperation(() => adapter.validate(input, repaired), options);
      rows.push(
        `| ${library} | ${label} | ${microseconds(viaPlan)} | ${microseconds(viaReference)} | ${microseconds(parseAlone)} | ${((viaPlan.median / parseAlone.median) * 100).toFixed(1)}% | ${(viaReference.median / viaPlan.median).toFixed(1)}× |`,
      );
    }
  }
  return [
    '| library | arguments | generated walk µs, median (min–max) | coerceJsonArgs µs | its parse alone µs | plan ÷ parse | reference ÷ plan |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

export async function benchmarkBuild({ counts, quick }) {
  const { createGeneratorContext } = await import(dist('src/generate/context.js'));
  const rows = [];
  for (const count of counts) {
    const dir = createContractProject(count);
    try {
      const time = (args) => {
        const started = performance.now();
        execFileSync(process.execPath, [dist('src/cli/main.js'), 'generate', '--quiet', ...args], {
          cwd: dir,
          stdio: ['ignore', 'ignore', 'inherit'],
        });
        return performance.now() - started;
      };
      const repeats = quick ? 1 : 3;
      const cold = [];
      const cached = [];
      for (let run = 0; run < repeats; run++) {
        rmSync(path.join(dir, 'node_modules/.cache'), { recursive: true, force: true });
        cold.push(time([]));
        cached.push(time([]));
      }
      // Watch mode: a context that already ran, then one file changes.
      const context = createGeneratorContext({ root: dir });
      await context.run();
      const changed = path.join(dir, 'src/tools/tool-0.ts');
      const regenerations = [];
      for (let run = 0; run < (quick ? 3 : 15); run++) {
        writeFileSync(
          changed,
          readFileSync(changed, 'utf8').replace(
            /does a realistic amount of work( again)*/,
            (text) => `${text} again`,
          ),
        );
        const now = new Date(Date.now() + run * 1000);
        utimesSync(changed, now, now);
        const started = performance.now();
        const outcome = await context.run();
        if (!outcome.ran || outcome.problems.length > 0) throw new Error('the watch run did not regenerate');
        regenerations.push(performance.now() - started);
      }
      rows.push(
        `| ${count} | ${formatStats(stats(cold))} | ${formatStats(stats(cached))} | ${formatStats(stats(regenerations))} | ${(stats(cold).median / count).toFixed(2)} |`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const vite = await benchmarkViteBuild(quick);
  return [
    '| contract files | `toolprep generate` cold ms, median (min–max) | with the cache | regeneration after one change (watch) | cold ms per file |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
    vite,
  ].join('\n');
}

async function benchmarkViteBuild(quick) {
  const { build } = await import('vite');
  const example = path.join(REPO, 'examples/notes-server');
  const { default: toolprep } = await import(dist('plugin/vite.js'));
  const once = async (plugins) => {
    const started = performance.now();
    await build({
      root: example,
      configFile: false,
      logLevel: 'silent',
      plugins,
      ssr: { external: true },
      build: { ssr: 'src/server.ts', outDir: path.join(example, 'dist-bench'), emptyOutDir: true },
    });
    return performance.now() - started;
  };
  const withPlugin = [];
  const without = [];
  for (let run = 0; run < (quick ? 2 : 5); run++) {
    without.push(await once([]));
    withPlugin.push(await once([toolprep()]));
  }
  rmSync(path.join(example, 'dist-bench'), { recursive: true, force: true });
  const a = stats(withPlugin);
  const b = stats(without);
  return `Vite build of the example server: **${formatStats(a)} ms** with the plugin, ${formatStats(b)} ms without it (the plugin adds ${(a.median - b.median).toFixed(0)} ms; runs after the first use the cache).`;
}

// When each module the runtime and the MCP surface import lazily is loaded.
const WHEN_LAZY_MODULES_LOAD = {
  'runtime/tool-calls.js': 'on the first call (the call stages: repair, parse, handler, output)',
  'runtime/plan-closures.js':
    'on the first call of a tool whose set was made at run time (prepareToolSet), with no walk written by the build',
  'runtime/deferred-checks.js': 'on a first deferred refusal',
  'runtime/refusals.js': 'on a first refused call',
  'runtime/call-errors.js':
    'on a first call that fails by a throw, or through a profile it was not prepared for',
  'adapters/zod4/locate.js': 'on a first deferred refusal',
  'adapters/zod3/locate.js': 'on a first deferred refusal',
  'surfaces/mcp/legacy/sdk-v1.js':
    'with the SDK, after the first tools/list answer or on the first request it must answer',
  'surfaces/mcp/legacy/sessions.js': 'on the first request of an HTTP server with sessions',
  'surfaces/mcp/modern/task-work.js':
    'at start by a server some of whose tools run as tasks (the tasks extension), with its store',
  'surfaces/mcp/transport/legacy-exchange.js':
    'by an HTTP server on the first 2025 request the prepared answers do not hold',
  'surfaces/mcp/service/state-signature.js':
    'on a first call that asks the client a question or carries its answers (2026-07-28)',
  'runtime/search.js': 'on the first `search_tools` call (with `search: {}`)',
  'surfaces/mcp/transport/group-endpoints.js': 'on the first request of an HTTP server with `groupEndpoints`',
  'surfaces/mcp/transport/jwt-verifier.js':
    'on the first request carrying a token to a Node HTTP server with `auth.issuer` (with jose)',
  'surfaces/mcp/modern/group-work.js':
    'at start by a server some of whose groups hold deferred tools (the groups draft)',
};

export async function benchmarkSize() {
  const { build } = await import('esbuild');
  const rows = [];
  // What a server loads at start; the modules the runtime imports lazily (the finder a deferred
  // refusal needs) are measured apart, as they are loaded only by a tool whose plan has one.
  const lazyModules = [];
  const leaveLazy = {
    name: 'leave-lazy',
    setup(bundle) {
      bundle.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind !== 'dynamic-import' || !args.path.startsWith('.')) return undefined;
        lazyModules.push(path.resolve(args.resolveDir, args.path));
        return { path: args.path, external: true };
      });
    },
  };
  const measure = async (file, plugins = []) => {
    const result = await build({
      entryPoints: [file],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'node',
      packages: 'external',
      write: false,
      logLevel: 'error',
      plugins,
    });
    const code = result.outputFiles[0].contents;
    return { bytes: code.length, gzipped: gzipSync(code).length };
  };
  const entries = {
    runtime: 'src/runtime/index.js',
    // A server imports the run-time adapter of each schema library its contracts use.
    'runtime/zod4': 'src/adapters/zod4/runtime.js',
    'runtime/zod3': 'src/adapters/zod3/runtime.js',
    'runtime/standard': 'src/adapters/standard/runtime.js',
    mcp: 'src/surfaces/mcp/index.js',
  };
  for (const [entry, file] of Object.entries(entries)) {
    const { bytes, gzipped } = await measure(dist(file), [leaveLazy]);
    rows.push(`| \`toolprep/${entry}\`, loaded at start | ${bytes} | ${gzipped} |`);
  }
  for (const file of [...new Set(lazyModules)]) {
    const module = path.relative(dist('src'), file);
    const loaded = WHEN_LAZY_MODULES_LOAD[module];
    if (!loaded) throw new Error(`bench/sections.mjs: say when ${module} is loaded (WHEN_LAZY_MODULES_LOAD)`);
    const { bytes, gzipped } = await measure(file, [leaveLazy]);
    rows.push(`| ${module}, loaded ${loaded} (bundled alone) | ${bytes} | ${gzipped} |`);
  }
  // Modules and bytes the example server loads before its first tools/list answer.
  const example = path.join(REPO, 'examples/notes-server');
  const { build: viteBuild } = await import('vite');
  await viteBuild({ configFile: path.join(example, 'vite.config.ts'), logLevel: 'silent' });
  const log = path.join(example, 'dist/resolved.log');
  writeFileSync(log, '');
  writeFileSync(
    path.join(example, 'dist/record.mjs'),
    "import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(process.env.RESOLVED_LOG, r.url + '\\n'); return r; }\n",
  );
  // The answer to tools/list is marked in the same log: what loads after it (the SDK) is not counted.
  writeFileSync(
    path.join(example, 'dist/register.mjs'),
    [
      "import { appendFileSync } from 'node:fs';",
      "import { register } from 'node:module';",
      "register('./record.mjs', import.meta.url);",
      'const write = process.stdout.write.bind(process.stdout);',
      "process.stdout.write = (chunk, ...rest) => { if (String(chunk).includes('\"id\":2}')) appendFileSync(process.env.RESOLVED_LOG, 'answered\\n'); return write(chunk, ...rest); };",
      '',
    ].join('\n'),
  );
  const requests = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })}\n${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} })}\n`;
  execFileSync(
    process.execPath,
    ['--import', path.join(example, 'dist/register.mjs'), path.join(example, 'dist/server.js')],
    { input: requests, env: { ...process.env, RESOLVED_LOG: log }, stdio: ['pipe', 'ignore', 'ignore'] },
  );
  const logged = readFileSync(log, 'utf8').trim().split('\n');
  const urls = [...new Set(logged.slice(0, logged.indexOf('answered')))].filter((url) =>
    url.startsWith('file:'),
  );
  const size = (urls) => urls.reduce((sum, url) => sum + statSync(new URL(url)).size, 0);
  const toolprep = urls.filter((url) => url.startsWith(pathToFileURL(path.join(REPO, 'dist')).href));
  const own = urls.filter((url) => url.includes('/examples/notes-server/dist/'));
  const sdk = urls.filter((url) => url.includes('@modelcontextprotocol'));
  const zod = urls.filter((url) => url.includes('/zod/'));
  const line = (label, list) => `| ${label} | ${list.length} | ${(size(list) / 1024).toFixed(1)} KiB |`;
  return [
    '| entry | minified bytes | minified + gzipped bytes |',
    '| --- | --- | --- |',
    ...rows,
    '',
    'Modules the example server resolves (ESM files loaded) before its first `tools/list` answer, by origin:',
    '',
    '| origin | modules | bytes on disk |',
    '| --- | --- | --- |',
    line('the server bundle (no tool chunk)', own),
    line('toolprep (runtime + mcp)', toolprep),
    line('@modelcontextprotocol/sdk', sdk),
    line('zod (loaded by the SDK itself)', zod),
    line('all', urls),
  ].join('\n');
}

/**
 * The repairs' cost per call: the same 8-field input (its record with enum keys, which every
 * profile can show), with every repair compiled in, called with typical arguments (nothing to
 * repair), with each repair acting, and as a strict profile's model answers; against the parse.
 */
export async function benchmarkRepairs({ quick }) {
  const { z } = await import('zod');
  const { defineTool } = await import(dist('src/index.js'));
  const { prepareTool } = await import(dist('src/build.js'));
  const { INVERSE_STEPS } = await import(dist('src/manifest/profiles.js'));
  // A record with free keys has no strict document, so its keys are listed here.
  const input = repairsInput(z);
  const profiles = ['openai-strict', 'anthropic-strict'];
  const { plan } = prepareTool(defineTool({ name: 'search', description: 'Search.', input }), { profiles });
  const repairs = plan.repairs ?? [];
  if (repairs.length !== 4) throw new Error(`the plan holds the repairs ${repairs.join(', ')}, not all four`);
  // The walk as the build writes it into the generated module.
  const [applyPlan] = await generatedWalks([plan]);
  const options = { batches: quick ? 5 : 15 };
  const parse = perOperation(() => input.parse(TYPICAL_SEARCH_ARGS), options);
  const rows = [];
  for (const [label, args, inverse] of repairCases(INVERSE_STEPS)) {
    const repaired = applyPlan(args, inverse);
    if (!input.safeParse(repaired).success)
      throw new Error(`${label}: the repairs did not bring the answer back`);
    if (args !== TYPICAL_SEARCH_ARGS && JSON.stringify(repaired) === JSON.stringify(args))
      throw new Error(`${label}: nothing was repaired`);
    const timed = perOperation(() => applyPlan(args, inverse), options);
    rows.push(`| ${label} | ${microseconds(timed)} | ${((timed.median / parse.median) * 100).toFixed(1)}% |`);
  }
  return [
    `Zod's parse of the repaired arguments: ${microseconds(parse)} µs.`,
    '',
    '| call | generated walk, µs median (min–max) | ÷ Zod parse |',
    '| --- | --- | --- |',
    ...rows,
  ].join('\n');
}

/** The manifest's size per profile: the same generated tools, as each provider is sent them. */
export async function benchmarkProfileSizes() {
  const count = 50;
  const dir = generatedContractProject(count, { profiles: true });
  try {
    const manifest = JSON.parse(readFileSync(path.join(dir, 'toolprep.manifest.json'), 'utf8'));
    const { totals } = manifest;
    const rows = [`| MCP (\`tools/list\`) | ${totals.bytes} | ${totals.tokens} | 1.00× |`];
    for (const [profile, size] of Object.entries(totals.profiles))
      rows.push(
        `| ${profile} | ${size.bytes} | ${size.tokens} | ${(size.bytes / totals.bytes).toFixed(2)}× |`,
      );
    const bytes = statSync(path.join(dir, 'toolprep.manifest.json')).size;
    return [
      `${count} generated tools (the build section's, with enum-key records in place of free ones, which strict profiles cannot show), prepared with every profile; the manifest is ${(bytes / 1024).toFixed(0)} KiB.`,
      '',
      '| tool definitions as | bytes | tokens (o200k_base) | ÷ MCP |',
      '| --- | --- | --- | --- |',
      ...rows,
    ].join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `toolprep check --explain` on generated projects: the explain pass's own time, per tool. */
export async function benchmarkExplain({ counts, quick }) {
  const rows = [];
  for (const count of counts) {
    const dir = createContractProject(count);
    try {
      const cli = (...args) =>
        execFileSync(process.execPath, [dist('src/cli/main.js'), ...args], { cwd: dir, encoding: 'utf8' });
      cli('generate', '--quiet');
      const times = [];
      let line = '';
      for (let run = 0; run < (quick ? 1 : 3); run++) {
        line =
          cli('check', '--explain')
            .split('\n')
            .find((text) => text.startsWith('[toolprep] explain:')) ?? '';
        times.push(Number(/in (\d+) ms$/.exec(line)?.[1]));
      }
      const median = stats(times).median;
      const values = /\((\d+) documented values parsed\)/.exec(line)?.[1];
      const found = /explain: (\d+) hidden/.exec(line)?.[1];
      rows.push(
        `| ${count} | ${formatStats(stats(times), 0)} | ${(median / count).toFixed(2)} | ${values} | ${found} |`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return [
    'The explain pass alone (loading every contract module, sampling each document and parsing each value), as `check --explain` reports it. The generated tools have no rule their documents do not show, so any hidden constraint found would be a false report.',
    '',
    '| tools | ms, median (min–max) | ms per tool | documented values parsed | hidden constraints found |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}
