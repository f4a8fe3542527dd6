import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { generate } from '@toolprep/build';
import { describe, expect, test } from 'vitest';
import { projectWith, writeFiles } from './throwaway-project.js';

const Z = "import { z } from 'zod';\n";
const input = 'input: z.object({ q: z.string() })';

async function discovered(files: Record<string, string>) {
  const result = await generate({ root: projectWith(files), cache: false });
  return {
    tools: (result.manifest?.tools ?? []).map((tool) => [tool.name, tool.source, tool.description]),
    problems: result.problems.map((problem) => problem.message),
    warnings: result.warnings.map((warning) => `${warning.file}:${warning.line} ${warning.message}`),
  };
}

describe('discovery', () => {
  test.each<[string, Record<string, string>, string[][]]>([
    [
      'export const',
      {
        'src/a.ts': `import { defineTool } from 'toolprep';\n${Z}export const searchFiles = defineTool({ description: 'd', ${input} });\n`,
      },
      [['search_files', 'src/a.ts#searchFiles', 'd']],
    ],
    [
      'a renamed import',
      {
        'src/a.ts': `import { defineTool as tool } from 'toolprep';\n${Z}export const find = tool({ description: 'd', ${input} });\n`,
      },
      [['find', 'src/a.ts#find', 'd']],
    ],
    [
      'a namespace import',
      {
        'src/a.ts': `import * as tp from 'toolprep';\n${Z}export const find = tp.defineTool({ description: 'd', ${input} });\n`,
      },
      [['find', 'src/a.ts#find', 'd']],
    ],
    [
      'export default of a call',
      {
        'src/read-notes.ts': `import { defineTool } from 'toolprep';\n${Z}export default defineTool({ description: 'd', ${input} });\n`,
      },
      [['read_notes', 'src/read-notes.ts#default', 'd']],
    ],
    [
      'export default of a local',
      {
        'src/b.ts': `import { defineTool } from 'toolprep';\n${Z}const t = defineTool({ description: 'd', ${input} });\nexport default t;\n`,
      },
      [['b', 'src/b.ts#default', 'd']],
    ],
    [
      'export { local as name }',
      {
        'src/a.ts': `import { defineTool } from 'toolprep';\n${Z}const local = defineTool({ description: 'd', ${input} });\nexport { local as listNotes };\n`,
      },
      [['list_notes', 'src/a.ts#listNotes', 'd']],
    ],
    [
      'a wrapped call (satisfies, parentheses)',
      {
        'src/a.ts': `import { defineTool, type ToolContract } from 'toolprep';\n${Z}export const wrapped = (defineTool({ description: 'd', ${input} })) satisfies ToolContract;\n`,
      },
      [['wrapped', 'src/a.ts#wrapped', 'd']],
    ],
    [
      'defineTool through a local `export *` barrel',
      {
        'src/lib/index.ts': "export * from 'toolprep';\n",
        'src/a.ts': `import { defineTool } from './lib/index.js';\n${Z}export const viaBarrel = defineTool({ description: 'd', ${input} });\n`,
      },
      [['via_barrel', 'src/a.ts#viaBarrel', 'd']],
    ],
    [
      'defineTool through a directory barrel with a named re-export',
      {
        'src/lib/index.ts': "export { defineTool } from 'toolprep';\n",
        'src/a.ts': `import * as lib from './lib';\n${Z}export const viaDirectory = lib.defineTool({ description: 'd', ${input} });\n`,
      },
      [['via_directory', 'src/a.ts#viaDirectory', 'd']],
    ],
    [
      'tools re-exported by a barrel are found once, where they are defined',
      {
        'src/tools/a.ts': `import { defineTool } from 'toolprep';\n${Z}export const one = defineTool({ description: 'd', ${input} });\n`,
        'src/tools/index.ts': "export * from './a.js';\nexport { one as uno } from './a.js';\n",
      },
      [['one', 'src/tools/a.ts#one', 'd']],
    ],
    [
      'JSDoc gives the description, without its tags',
      {
        'src/a.ts': `import { defineTool } from 'toolprep';\n${Z}/**\n * Find notes.\n * By title.\n * @deprecated use search\n */\nexport const find = defineTool({ ${input} });\n`,
      },
      [['find', 'src/a.ts#find', 'Find notes.\nBy title.']],
    ],
    [
      'an empty block comment after the JSDoc is not one (TypeScript reads none)',
      {
        'src/a.ts': `import { defineTool } from 'toolprep';\n${Z}/** Find notes. */ /**/\nexport const find = defineTool({ ${input} });\n`,
      },
      [['find', 'src/a.ts#find', 'Find notes.']],
    ],
    [
      'a local function named defineTool is not a tool',
      {
        'src/a.ts':
          "function defineTool(x: object) { return x; }\nexport const fake = defineTool({ description: 'd' });\n",
      },
      [],
    ],
    [
      'a defineTool from another package is not a tool',
      {
        'src/a.ts':
          "import { defineTool } from 'other-tools';\nexport const fake = defineTool({ description: 'd' });\n",
      },
      [],
    ],
    [
      'a type-only import is not a tool factory',
      {
        'src/a.ts':
          "import type { defineTool } from 'toolprep';\nexport const fake = (null as unknown as typeof defineTool)({ description: 'd' });\n",
      },
      [],
    ],
  ])('%s', async (_case, files, tools) => {
    expect((await discovered(files)).tools).toEqual(tools);
  });

  const readFiles = `import { defineTool } from 'toolprep';\n${Z}export const readFiles = defineTool({ description: 'd', ${input} });\n`;
  const viaLib = (specifier: string) =>
    `import { defineTool } from '${specifier}';\n${Z}export const viaLib = defineTool({ description: 'd', ${input} });\n`;
  const tsconfig = (compilerOptions: object, more: object = {}) =>
    JSON.stringify({ compilerOptions, ...more });

  test.each<[string, Record<string, string>, string[][]]>([
    [
      'a barrel re-exporting contracts outside include through a tsconfig paths alias',
      {
        'tsconfig.json': tsconfig({ paths: { '@contracts/*': ['./contracts/*'] } }),
        'contracts/files.ts': readFiles,
        'src/index.ts': "export * from '@contracts/files';\n",
      },
      [['read_files', 'contracts/files.ts#readFiles', 'd']],
    ],
    [
      'a named re-export through an alias takes only the names it re-exports',
      {
        'tsconfig.json': tsconfig({ paths: { '@contracts/*': ['./contracts/*'] } }),
        'contracts/files.ts': `${readFiles}export const other = defineTool({ description: 'o', ${input} });\n`,
        'src/index.ts': "export { other } from '@contracts/files.js';\n",
      },
      [['other', 'contracts/files.ts#other', 'o']],
    ],
    [
      'defineTool imported through a tsconfig paths alias',
      {
        'tsconfig.json': tsconfig({ paths: { '@lib/*': ['./src/lib/*'] } }),
        'src/lib/tp.ts': "export { defineTool } from 'toolprep';\n",
        'src/a.ts': viaLib('@lib/tp.js'),
      },
      [['via_lib', 'src/a.ts#viaLib', 'd']],
    ],
    [
      'defineTool imported from a baseUrl path',
      {
        'tsconfig.json': tsconfig({ baseUrl: '.' }),
        'src/lib/tp.ts': "export * from 'toolprep';\n",
        'src/a.ts': viaLib('src/lib/tp'),
      },
      [['via_lib', 'src/a.ts#viaLib', 'd']],
    ],
    [
      'paths from a tsconfig the project extends',
      {
        'tsconfig.base.json': tsconfig({ paths: { '@lib/*': ['./src/lib/*'] } }),
        'tsconfig.json': JSON.stringify({ extends: './tsconfig.base.json' }),
        'src/lib/tp.ts': "export { defineTool } from 'toolprep';\n",
        'src/a.ts': viaLib('@lib/tp.js'),
      },
      [['via_lib', 'src/a.ts#viaLib', 'd']],
    ],
    [
      'paths from a referenced project (a solution tsconfig)',
      {
        'tsconfig.json': JSON.stringify({ files: [], references: [{ path: './tsconfig.app.json' }] }),
        'tsconfig.app.json': tsconfig(
          { composite: true, paths: { '@contracts/*': ['./contracts/*'] } },
          { include: ['src', 'contracts'] },
        ),
        'contracts/files.ts': readFiles,
        'src/index.ts': "export * from '@contracts/files';\n",
      },
      [['read_files', 'contracts/files.ts#readFiles', 'd']],
    ],
    [
      'defineTool through package.json imports (#lib/*)',
      {
        'package.json': JSON.stringify({ type: 'module', imports: { '#lib/*': './src/lib/*' } }),
        'src/lib/tp.ts': "export { defineTool } from 'toolprep';\n",
        'src/a.ts': viaLib('#lib/tp.js'),
      },
      [['via_lib', 'src/a.ts#viaLib', 'd']],
    ],
    [
      'a workspace package re-exported by name through its exports',
      {
        'packages/contracts/package.json': JSON.stringify({
          name: '@acme/contracts',
          type: 'module',
          exports: { './*': './src/*.ts' },
        }),
        'packages/contracts/src/files.ts': readFiles,
        'src/index.ts': "export * from '@acme/contracts/files';\n",
      },
      [['read_files', 'packages/contracts/src/files.ts#readFiles', 'd']],
    ],
  ])('%s', async (_case, files, tools) => {
    const root = projectWith(files);
    if (files['packages/contracts/package.json']) {
      mkdirSync(path.join(root, 'node_modules/@acme'));
      symlinkSync(path.join(root, 'packages/contracts'), path.join(root, 'node_modules/@acme/contracts'));
    }
    const result = await generate({ root, cache: false });
    expect(result.problems).toEqual([]);
    expect((result.manifest?.tools ?? []).map((tool) => [tool.name, tool.source, tool.description])).toEqual(
      tools,
    );
  });

  test.each<[string, Record<string, string>, string[][], string[]]>([
    [
      'contracts written in an exported object, each named by its key',
      {
        'src/a.ts': `import { defineTool } from 'toolprep';\n${Z}export const tools = {\n  /** Search. */\n  search: defineTool({ ${input} }),\n  'fetchPage': defineTool({ description: 'f', ${input} }),\n};\n`,
      },
      [
        ['fetch_page', 'src/a.ts#tools.fetchPage', 'f'],
        ['search', 'src/a.ts#tools.search', 'Search.'],
      ],
      ['.tools.search', '.tools.fetchPage'],
    ],
    [
      'locals held in an exported object or list',
      {
        'src/a.ts': `import { defineTool } from 'toolprep';\n${Z}/** Find. */\nconst find = defineTool({ ${input} });\nconst other = defineTool({ name: 'other', description: 'o', ${input} });\nexport const tools = { find };\nexport default [other];\n`,
      },
      [
        ['find', 'src/a.ts#tools.find', 'Find.'],
        ['other', 'src/a.ts#default[0]', 'o'],
      ],
      ['.tools.find', '.default[0]'],
    ],
    [
      'a factory of the same module, called at the top level',
      {
        'src/a.ts': `import { defineTool } from 'toolprep';\n${Z}const searchIn = (scope: string) => defineTool({ description: \`Search \${scope}.\`, ${input} });\nexport const searchNotes = searchIn('notes');\n`,
      },
      [['search_notes', 'src/a.ts#searchNotes', 'Search notes.']],
      ['.searchNotes'],
    ],
    [
      'a factory imported from another module of the project',
      {
        'src/lib/factory.ts': `import { defineTool } from 'toolprep';\n${Z}export function searchTool(scope: string) {\n  return defineTool({ description: \`Search \${scope}.\`, ${input} });\n}\nexport const notATool = () => 1;\n`,
        'src/a.ts':
          "import { notATool, searchTool } from './lib/factory.js';\nexport const searchDocs = searchTool('docs');\nexport const one = notATool();\n",
      },
      [['search_docs', 'src/a.ts#searchDocs', 'Search docs.']],
      ['.searchDocs'],
    ],
  ])('%s', async (_case, files, tools, accesses) => {
    const result = await generate({ root: projectWith(files), cache: false });
    expect(result.problems).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect((result.manifest?.tools ?? []).map((tool) => [tool.name, tool.source, tool.description])).toEqual(
      tools,
    );
    const module = result.files.find((file) => file.path.endsWith('.gen.ts'))?.text ?? '';
    for (const access of accesses) expect(module).toContain(`(module) => module${access})`);
  });

  test("a contract a package's factory makes is no tool discovery sees: once loaded, an error naming the export", async () => {
    // A package is never read for tools, so its factories are unknown to discovery; the loaded
    // module's exports are walked and the contract found there is named.
    const root = projectWith({
      'src/a.ts': `import { defineTool } from 'toolprep';\nimport { makeTool } from 'tool-kit';\n${Z}export const tools = { search: makeTool('search') };\nexport const kept = defineTool({ description: 'k', ${input} });\n`,
    });
    writeFiles(root, {
      'node_modules/tool-kit/package.json': JSON.stringify({
        name: 'tool-kit',
        type: 'module',
        main: 'index.js',
      }),
      'node_modules/tool-kit/index.js':
        "import { defineTool } from 'toolprep';\nimport { z } from 'zod';\nexport const makeTool = (name) => defineTool({ name, description: name, input: z.object({}) });\n",
    });
    const result = await generate({ root, cache: false });
    expect(result.problems.map((problem) => [problem.code, problem.file, problem.message])).toEqual([
      [
        'unnamed-contract',
        'src/a.ts',
        'export "tools.search" holds a defineTool() contract that discovery did not find, so it would not be a tool',
      ],
    ]);
  });

  test('contracts that come from other modules are left to them: no error, each found once', async () => {
    const result = await discovered({
      'src/b.ts': `import { defineTool } from 'toolprep';\n${Z}export const other = defineTool({ description: 'o', ${input} });\n`,
      'src/a.ts': `import { defineTool } from 'toolprep';\n${Z}import { other } from './b.js';\nexport { other as again } from './b.js';\nconst mine = defineTool({ description: 'm', ${input} });\nexport const all = { other, mine };\nexport const same = other;\n`,
    });
    expect(result.problems).toEqual([]);
    expect(result.tools).toEqual([
      ['mine', 'src/a.ts#all.mine', 'm'],
      ['other', 'src/b.ts#other', 'o'],
    ]);
  });

  test('a defineTool result that is not exported is a warning with its file and line', async () => {
    const result = await discovered({
      'src/a.ts': `import { defineTool } from 'toolprep';\n${Z}\nconst hidden = defineTool({ description: 'd', ${input} });\nvoid hidden;\n`,
    });
    expect(result.tools).toEqual([]);
    expect(result.warnings).toEqual([
      'src/a.ts:4 defineTool() result is not exported, so it is not a tool: export it, or remove it',
    ]);
  });

  test('a syntax error is reported with its file and line, and nothing is generated', async () => {
    const result = await generate({
      root: projectWith({
        'src/a.ts': `import { defineTool } from 'toolprep';\n${Z}export const broken = defineTool({ description: 'd', ${input} );\n`,
      }),
      cache: false,
    });
    expect(result.files).toEqual([]);
    expect(result.problems).toEqual([
      expect.objectContaining({
        file: 'src/a.ts',
        line: 3,
        message: expect.stringMatching(/^could not be built: Expected "}" but found "\)"/),
      }),
    ]);
  });
});
