import { generate } from '@toolprep/build';
import { describe, expect, test } from 'vitest';
import { projectWith } from './throwaway-project.js';

const HEAD = "import { defineTool } from 'toolprep';\nimport { z } from 'zod';\n";
const tool = (description: string, name?: string) =>
  `defineTool({ ${name ? `name: '${name}', ` : ''}description: '${description}', input: z.object({ q: z.string() }) })`;
/** A second file with a tool discovery finds, so that no case is only the `no-tools` error. */
const PING = { 'src/ping.ts': `${HEAD}export const ping = ${tool('Ping.')};\n` };

/** What a project generates: its tools (name, source), its problems and warnings as `code file:line message`. */
async function outcome(files: Record<string, string>) {
  const result = await generate({ root: projectWith({ ...PING, ...files }), cache: false });
  const said = (problem: (typeof result.problems)[number]) =>
    `${problem.code} ${problem.file}${problem.line ? `:${problem.line}` : ''} ${problem.message}`;
  return {
    tools: (result.manifest?.tools ?? [])
      .filter((found) => found.name !== 'ping')
      .map((found) => `${found.name} ${found.source}`),
    problems: result.problems.map(said),
    warnings: result.warnings.map(said),
    hints: result.problems.map((problem) => problem.hint ?? ''),
  };
}

const OUT_OF_SIGHT = 'where discovery cannot see which export holds it, so it would not be a tool';

/** Each form a contract may be written in, as a user writes it, and what discovery makes of it. */
const CASES: [form: string, files: Record<string, string>, tools: string[], problems: string[]][] = [
  // Read: Object.freeze returns its argument.
  [
    'an exported Object.freeze of an object literal',
    { 'src/a.ts': `${HEAD}export const tools = Object.freeze({\n  search: ${tool('S.')},\n});\n` },
    ['search src/a.ts#tools.search'],
    [],
  ],
  [
    'a default export of Object.freeze of a list, `as const`',
    { 'src/a.ts': `${HEAD}export default Object.freeze([${tool('F.', 'find')}] as const);\n` },
    ['find src/a.ts#default[0]'],
    [],
  ],
  [
    'Object.freeze of the call itself',
    { 'src/a.ts': `${HEAD}export const search = Object.freeze(${tool('S.')});\n` },
    ['search src/a.ts#search'],
    [],
  ],
  [
    'a local held in a frozen exported object',
    {
      'src/a.ts': `${HEAD}const base = ${tool('B.')};\nexport const tools = Object.freeze({ search: base });\n`,
    },
    ['search src/a.ts#tools.search'],
    [],
  ],
  [
    'a local object literal exported frozen as the default',
    { 'src/a.ts': `${HEAD}const tools = { search: ${tool('S.')} };\nexport default Object.freeze(tools);\n` },
    ['search src/a.ts#default.search'],
    [],
  ],
  [
    'a member of a local object, exported on its own',
    { 'src/a.ts': `${HEAD}const tools = { search: ${tool('S.')} };\nexport const find = tools.search;\n` },
    ['find src/a.ts#find'],
    [],
  ],
  // Read: an identity wrapper of the project, proved from its body.
  [
    'an identity wrapper declared in the module',
    {
      'src/a.ts': `${HEAD}function audited<T>(tool: T): T {\n  console.log('audited');\n  return tool;\n}\nexport const search = audited(${tool('S.')});\n`,
    },
    ['search src/a.ts#search'],
    [],
  ],
  [
    'an identity wrapper imported from a module of the project, around a local',
    {
      'src/audit.ts': 'export const audited = <T,>(tool: T, _label?: string): T => tool;\n',
      'src/a.ts': `${HEAD}import { audited } from './audit.js';\nconst base = ${tool('B.')};\nexport const tools = { search: audited(base, 'search') };\n`,
    },
    ['search src/a.ts#tools.search'],
    [],
  ],
  [
    'a default-exported identity wrapper, nested in Object.freeze',
    {
      'src/audit.ts':
        'export default function audited<T>(tool: T): T {\n  if (!tool) return tool;\n  return tool;\n}\n',
      'src/a.ts': `${HEAD}import audited from './audit.js';\nexport const search = Object.freeze(audited(${tool('S.')}));\n`,
    },
    ['search src/a.ts#search'],
    [],
  ],
  // Read: a tool factory of the project, named, called at the top level.
  [
    'a default-exported tool factory, imported',
    {
      'src/make.ts': `${HEAD}export default (name: string) => defineTool({ name, description: name, input: z.object({}) });\n`,
      'src/a.ts': "import make from './make.js';\nexport const search = make('search');\n",
    },
    ['search src/a.ts#search'],
    [],
  ],
  // Errors: the contract goes where discovery cannot follow it.
  [
    'Object.fromEntries over a map that calls defineTool',
    {
      'src/a.ts': `${HEAD}const names = ['search', 'fetch'] as const;\nexport const tools = Object.fromEntries(\n  names.map((n) => [n, defineTool({ name: n, description: n, input: z.object({}) })]),\n);\n`,
    },
    [],
    [
      `contract-out-of-sight src/a.ts:5 defineTool() result is made inside a function passed to \`names.map(…)\`, ${OUT_OF_SIGHT}`,
    ],
  ],
  [
    'Object.fromEntries over a map that calls a tool factory',
    {
      'src/a.ts': `${HEAD}const make = (name: string) => defineTool({ name, description: name, input: z.object({}) });\nexport const tools = Object.fromEntries(['a', 'b'].map((n) => [n, make(n)]));\n`,
    },
    [],
    [
      `contract-out-of-sight src/a.ts:4 result of the tool factory make() is made inside a function passed to \`['a', 'b'].map(…)\`, ${OUT_OF_SIGHT}`,
    ],
  ],
  [
    'a tool factory handed to map',
    {
      'src/a.ts': `${HEAD}function make(name: string) {\n  return defineTool({ name, description: name, input: z.object({}) });\n}\nexport const tools = ['a', 'b'].map(make);\n`,
    },
    [],
    [
      `contract-out-of-sight src/a.ts:6 tool factory make is passed to \`['a', 'b'].map(…)\`, which calls it where discovery cannot see, ${OUT_OF_SIGHT}`,
    ],
  ],
  [
    'a wrapper that returns something else than its argument',
    {
      'src/a.ts': `${HEAD}function audited<T extends object>(tool: T): T {\n  return { ...tool };\n}\nexport const search = audited(${tool('S.')});\n`,
    },
    [],
    [`contract-out-of-sight src/a.ts:6 defineTool() result is passed to \`audited(…)\`, ${OUT_OF_SIGHT}`],
  ],
  [
    'an async wrapper',
    {
      'src/a.ts': `${HEAD}async function audited<T>(tool: T): Promise<T> {\n  return tool;\n}\nexport const search = await audited(${tool('S.')});\n`,
    },
    [],
    [`contract-out-of-sight src/a.ts:6 defineTool() result is passed to \`audited(…)\`, ${OUT_OF_SIGHT}`],
  ],
  [
    'a wrapper from a package',
    {
      'src/a.ts': `${HEAD}import { audited } from 'audit-kit';\nconst base = ${tool('B.')};\nexport const search = audited(base);\n`,
    },
    [],
    [
      `contract-out-of-sight src/a.ts:5 defineTool() result (of line 4) is passed to \`audited(…)\`, ${OUT_OF_SIGHT}`,
    ],
  ],
  [
    'an identity wrapper imported through a barrel',
    {
      'src/lib/audit.ts': 'export const audited = <T,>(tool: T): T => tool;\n',
      'src/lib/index.ts': "export * from './audit.js';\n",
      'src/a.ts': `${HEAD}import { audited } from './lib/index.js';\nexport const search = audited(${tool('S.')});\n`,
    },
    [],
    [`contract-out-of-sight src/a.ts:4 defineTool() result is passed to \`audited(…)\`, ${OUT_OF_SIGHT}`],
  ],
  [
    'Object.freeze when the module declares its own Object',
    {
      'src/a.ts': `${HEAD}const Object = { freeze: (value: unknown) => ({ value }) };\nexport const tools = Object.freeze({ search: ${tool('S.')} });\n`,
    },
    [],
    [
      `contract-out-of-sight src/a.ts:4 defineTool() result is passed to \`Object.freeze(…)\`, ${OUT_OF_SIGHT}`,
    ],
  ],
  [
    'an object two levels deep',
    { 'src/a.ts': `${HEAD}export const groups = {\n  files: {\n    read: ${tool('R.')},\n  },\n};\n` },
    [],
    [
      `contract-out-of-sight src/a.ts:5 defineTool() result is two levels deep in export \`groups\`, ${OUT_OF_SIGHT}`,
    ],
  ],
  [
    'a static member of an exported class',
    { 'src/a.ts': `${HEAD}export class Tools {\n  static search = ${tool('S.')};\n}\n` },
    [],
    [`contract-out-of-sight src/a.ts:4 defineTool() result is a class member, ${OUT_OF_SIGHT}`],
  ],
  [
    'a method that makes a contract',
    {
      'src/a.ts': `${HEAD}export const kit = {\n  make() {\n    return ${tool('M.')};\n  },\n};\n`,
    },
    [],
    [`contract-out-of-sight src/a.ts:5 defineTool() result is made inside a method, ${OUT_OF_SIGHT}`],
  ],
  [
    'a contract spread into an exported list',
    { 'src/a.ts': `${HEAD}const some = [${tool('S.', 'search')}];\nexport const tools = [...some];\n` },
    [],
    [
      `contract-out-of-sight src/a.ts:4 defineTool() result (of line 3) is spread into another value, ${OUT_OF_SIGHT}`,
    ],
  ],
  [
    'a contract handed to a registry',
    {
      'src/a.ts': `${HEAD}const registry: unknown[] = [];\nregistry.push(${tool('S.')});\nexport const tools = registry;\n`,
    },
    [],
    [
      `contract-out-of-sight src/a.ts:4 defineTool() result is passed to \`registry.push(…)\`, ${OUT_OF_SIGHT}`,
    ],
  ],
  [
    'a destructured export',
    { 'src/a.ts': `${HEAD}export const { search } = { search: ${tool('S.')} };\n` },
    [],
    [`contract-out-of-sight src/a.ts:3 defineTool() result is destructured, ${OUT_OF_SIGHT}`],
  ],
];

describe('every form a contract is written in is a tool or an error naming its file and line', () => {
  test.each(CASES)('%s', async (_form, files, tools, problems) => {
    const result = await outcome(files);
    expect(result.tools).toEqual(tools);
    expect(result.problems).toEqual(problems);
    expect(result.warnings).toEqual([]);
  });

  test('a wrapper discovery cannot see through says how to declare one it can', async () => {
    const result = await outcome({
      'src/a.ts': `${HEAD}import { audited } from 'audit-kit';\nexport const search = audited(${tool('S.')});\n`,
    });
    expect(result.hints).toEqual([
      'if `audited` returns its argument unchanged, declare it in the project as `function audited<T>(tool: T): T { …; return tool; }` (in this module, or imported straight from the one that declares it) and discovery sees through it; otherwise export the contract itself',
    ]);
  });

  test('a result that goes nowhere stays a warning; one also exported is a tool and no error', async () => {
    const result = await outcome({
      'src/a.ts': `${HEAD}const hidden = ${tool('H.')};\nvoid hidden;\nhidden.input;\n${tool('D.')};\nconst base = ${tool('B.', 'base')};\nexport const tools = [base];\nconsole.log(base);\n`,
    });
    expect(result.tools).toEqual(['base src/a.ts#tools[0]']);
    expect(result.problems).toEqual([]);
    expect(result.warnings).toEqual([
      'not-exported src/a.ts:3 defineTool() result is not exported, so it is not a tool: export it, or remove it',
      'not-exported src/a.ts:6 defineTool() result is not exported, so it is not a tool: export it, or remove it',
    ]);
  });

  test('with a tool discovery finds in the same file, the out-of-sight one is still the error, not the load walk', async () => {
    const result = await outcome({
      'src/a.ts': `${HEAD}export const kept = ${tool('K.')};\nexport const tools = Object.fromEntries(['a'].map((n) => [n, ${tool('T.', 'a')}]));\n`,
    });
    expect(result.problems).toEqual([
      `contract-out-of-sight src/a.ts:4 defineTool() result is made inside a function passed to \`['a'].map(…)\`, ${OUT_OF_SIGHT}`,
      'unnamed-contract src/a.ts export "tools.a" holds a defineTool() contract that discovery did not find, so it would not be a tool',
    ]);
  });

  test('a factory whose result holds a contract deeper is an error once loaded, naming the path', async () => {
    const result = await outcome({
      'src/a.ts': `${HEAD}function groups() {\n  return { files: { read: ${tool('R.', 'read')} } };\n}\nexport const all = groups();\n`,
    });
    expect(result.problems).toEqual([
      'unnamed-contract src/a.ts export "all.files.read" holds a defineTool() contract that discovery did not find, so it would not be a tool',
    ]);
  });

  test('a tool factory that calls another is one too: its result is a tool, a list of them is an error once loaded', async () => {
    const result = await outcome({
      'src/make.ts': `${HEAD}export function make(name: string) {\n  return defineTool({ name, description: name, input: z.object({}) });\n}\nexport function search() {\n  return make('search');\n}\nexport function both() {\n  return [make('a'), make('b')];\n}\n`,
      'src/a.ts':
        "import { both, search } from './make.js';\nexport const one = search();\nexport const all = both();\n",
    });
    expect(result.tools).toEqual([]);
    expect(result.problems).toEqual([
      'unnamed-contract src/a.ts export "all[0]" holds a defineTool() contract that discovery did not find, so it would not be a tool',
      'unnamed-contract src/a.ts export "all[1]" holds a defineTool() contract that discovery did not find, so it would not be a tool',
    ]);
  });
});
