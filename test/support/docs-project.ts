import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { packPackages, REPO } from '../../scripts/packages.mjs';
import type { PageSnippets, Snippet } from './doc-snippets.js';

const run = promisify(execFile);

/**
 * The packages the documentation's code imports beside toolprep, at the versions of this
 * repository's devDependencies: the newest of each peer range, what a user installs today. `ai` is
 * AI SDK 7 (`ai7` here), the newest of `^6 || ^7`.
 */
const LINKED = [
  '@modelcontextprotocol/sdk',
  '@modelcontextprotocol/server',
  '@modelcontextprotocol/node',
  'openai',
  '@anthropic-ai/sdk',
  '@google/genai',
  '@openai/agents',
  'ai',
  'valibot',
  '@valibot/to-json-schema',
  'hono',
  'ioredis',
  'redis',
  'typescript',
  'vite',
  'rollup',
  'rollup-plugin-esbuild',
  'rolldown',
  'webpack',
  'esbuild-loader',
  '@rspack/core',
];
const LINKED_FROM: Record<string, string> = { ai: 'ai7' };

const versionOf = (name: string): string =>
  (
    JSON.parse(readFileSync(path.join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

/**
 * A project as a user makes one: both packages packed and installed by npm from their tarballs,
 * with zod and the type packages (Node's, and Bun's of the Bun this repository runs). The SDKs,
 * bundlers and TypeScript are the same versions linked from this repository's node_modules rather
 * than installed again, which would triple the time for the same bytes.
 */
export async function createDocsProject(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'toolprep-docs-snippets-'));
  mkdirSync(path.join(dir, 'packs'));
  const tarballs = packPackages(path.join(dir, 'packs'));
  const packageJson = {
    name: 'docs-snippets',
    private: true,
    type: 'module',
    dependencies: { toolprep: `file:${tarballs.toolprep}`, zod: versionOf('zod') },
    devDependencies: {
      '@toolprep/build': `file:${tarballs['@toolprep/build']}`,
      '@types/node': versionOf('@types/node'),
      '@types/bun': versionOf('bun'),
    },
  };
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
  });
  for (const name of LINKED) {
    const target = path.join(dir, 'node_modules', name);
    mkdirSync(path.dirname(target), { recursive: true });
    symlinkSync(path.join(REPO, 'node_modules', LINKED_FROM[name] ?? name), target, 'dir');
  }
  return dir;
}

/**
 * What the documentation takes for granted, for a block marked `<!-- snippet: given … -->`: the
 * page project's handlers (one per tool, each answering `<tool> done`) and runtime over its
 * generated module, an AI SDK model that calls `read_notes` and then answers, and a prompt.
 */
const GIVEN: Record<
  string,
  { readonly imports: readonly string[]; readonly code: string; readonly needs?: string }
> = {
  handlers: {
    imports: ["import { type ToolHandlers, tools } from './src/toolprep.gen.js';"],
    code: `export const handlers = Object.fromEntries(
  tools.prepared.map((tool) => [tool.name, () => \`\${tool.name} done\`]),
) as unknown as ToolHandlers;`,
  },
  runtime: {
    imports: ["import { createToolRuntime } from 'toolprep/runtime';"],
    needs: 'handlers',
    code: 'export const runtime = createToolRuntime(tools, { handlers });',
  },
  model: {
    imports: ["import { MockLanguageModelV3 } from 'ai/test';"],
    code: `const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
export const model = new MockLanguageModelV3({
  doGenerate: async ({ prompt }) =>
    prompt.at(-1)?.role === 'tool'
      ? { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] }
      : {
          content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'read_notes', input: '{"paths":["todo.md"]}' }],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage,
          warnings: [],
        },
});`,
  },
  prompt: { imports: [], code: "export const prompt = 'What is in todo.md?';" },
};

/** Where a written file's lines come from: the block, and the lines the harness put before its code. */
interface WrittenFile {
  readonly snippet: Snippet;
  /** Lines inserted, after the first line when it is a `#!` line. */
  readonly inserted: number;
  readonly afterShebang: boolean;
}

export interface PageProject {
  readonly page: PageSnippets;
  /** The page's folder, relative to the project: `pages/docs-guide-profiles`. */
  readonly folder: string;
  /** Each written block by its path relative to the project. */
  readonly files: ReadonlyMap<string, WrittenFile>;
}

/**
 * The files a page's project holds beside its own blocks: a page that declares no tools of its own
 * (no block calls `defineTool`) builds on the README's quick start, its contract and its server.
 */
export function baseFor(page: PageSnippets, quickStart: readonly Snippet[]): readonly Snippet[] {
  return page.snippets.some((snippet) => /\bdefineTool\(/.test(snippet.code)) ? [] : quickStart;
}

/**
 * Writes a page's project: its `base` files (`baseFor`), then the page's own blocks over them,
 * each block that takes names given the harness's module `given.ts` (beside `src/`, so that no
 * `include` finds it).
 */
export function writePage(
  projectDir: string,
  page: PageSnippets,
  base: readonly Snippet[],
  codeOf: (snippet: Snippet) => string = (snippet) => snippet.code,
): PageProject {
  const folder = pageFolder(page);
  const files = new Map<string, WrittenFile>();
  const own = new Set(page.snippets.map((snippet) => snippet.file));
  for (const snippet of [...base.filter((snippet) => !own.has(snippet.file)), ...page.snippets]) {
    const code = codeOf(snippet);
    const imports = snippet.given.length
      ? [`import { ${snippet.given.join(', ')} } from '${relativeSpecifier(snippet.file, 'given.js')}';`]
      : [];
    const afterShebang = code.startsWith('#!');
    const [first = '', ...rest] = code.split('\n');
    const text = afterShebang ? [first, ...imports, ...rest].join('\n') : [...imports, code].join('\n');
    write(path.join(projectDir, folder, snippet.file), text);
    files.set(`${folder}/${snippet.file}`, { snippet, inserted: imports.length, afterShebang });
  }
  const given = [...new Set(page.snippets.flatMap((snippet) => snippet.given))];
  for (const name of given) if (!GIVEN[name]) throw new Error(`${page.page}: nothing is given as "${name}"`);
  const needed = [...new Set(given.flatMap((name) => [GIVEN[name]?.needs, name]))].filter(
    (name): name is string => name !== undefined,
  );
  if (needed.length)
    write(
      path.join(projectDir, folder, 'given.ts'),
      [
        ...new Set(needed.flatMap((name) => GIVEN[name]?.imports ?? [])),
        '',
        ...needed.map((name) => GIVEN[name]?.code),
        '',
      ].join('\n'),
    );
  return { page, folder, files };
}

/** A page's folder in the project: `pages/docs-guide-profiles`, `pages/docs-guide-runtime-reports`. */
const pageFolder = ({ page, project }: PageSnippets): string =>
  `pages/${page.replace(/\.md$/, '').replaceAll('/', '-')}${project ? `-${project}` : ''}`;

function relativeSpecifier(from: string, to: string): string {
  const relative = path.posix.relative(path.posix.dirname(from), to);
  return relative.startsWith('.') ? relative : `./${relative}`;
}

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/**
 * The tsconfig a user gets from TypeScript 6's `tsc --init` (the strictest defaults yet:
 * `noUncheckedIndexedAccess`, `exactOptionalPropertyTypes`, `verbatimModuleSyntax`) with Node's
 * types, and JavaScript files checked too; it emits into `build/`, which Node runs.
 */
export function writeTsconfigs(
  projectDir: string,
  { exclude, bun }: { exclude: string[]; bun: string[] },
): void {
  const compilerOptions = {
    module: 'nodenext',
    target: 'esnext',
    types: ['node'],
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    strict: true,
    verbatimModuleSyntax: true,
    isolatedModules: true,
    noUncheckedSideEffectImports: true,
    moduleDetection: 'force',
    skipLibCheck: true,
    allowJs: true,
    checkJs: true,
    rootDir: '.',
    outDir: 'build',
  };
  write(
    path.join(projectDir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions, include: ['pages'], exclude }),
  );
  write(
    path.join(projectDir, 'tsconfig.bun.json'),
    JSON.stringify({
      extends: './tsconfig.json',
      compilerOptions: { types: ['bun'], noEmit: true },
      include: [],
      files: bun,
    }),
  );
}

/** A checker's diagnostics of one file: `src/server.ts(7,3): error TS2322: …`, its lines after. */
export interface Diagnostic {
  /** Relative to the project. */
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

/** tsc's diagnostics (`--pretty false`), each with the lines that continue it. */
export function tscDiagnostics(output: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const line of output.split('\n')) {
    const match = /^(?:(.+?)\((\d+),\d+\): )?(error TS\d+: .*)$/.exec(line);
    if (match) diagnostics.push({ file: match[1] ?? '', line: Number(match[2] ?? 0), text: match[3] ?? '' });
    else if (line.trim() && diagnostics.length) {
      const last = diagnostics.pop() as Diagnostic;
      diagnostics.push({ ...last, text: `${last.text}\n${line}` });
    }
  }
  return diagnostics;
}

/** Where a line of a written file is on its page: `docs/guide/profiles.md:93`. */
export function pageLocation(project: PageProject, file: string, line: number): string {
  const written = project.files.get(file);
  if (!written) return `${file}:${line}`;
  const { snippet, inserted, afterShebang } = written;
  const first = afterShebang ? 2 : 1;
  if (line >= first && line < first + inserted)
    return `${snippet.page}:${snippet.line} (the import of what is given)`;
  return `${snippet.page}:${snippet.line + (line >= first + inserted ? line - inserted : line) - 1}`;
}
