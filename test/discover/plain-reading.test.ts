import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { contractsDefinedIn } from '../../src/discover/contracts-in-module.js';
import { createFactoryTracer } from '../../src/discover/factory-calls.js';
import { foreignExportsOf } from '../../src/discover/foreign-exports.js';
import { createIncludedTargets } from '../../src/discover/included-targets.js';
import { plainContracts } from '../../src/discover/plain-contracts.js';
import { mayHoldContracts } from '../../src/discover/pre-filter.js';
import { createModuleResolver } from '../../src/discover/resolve-module.js';
import { createSourceProject } from '../../src/discover/source-project.js';
import { REPO } from '../support/fixture-project.js';

// The plain reading (decision 0071) must say what the full reading says of every file it answers for.
const sources = createSourceProject(REPO);
const tracer = createFactoryTracer(sources);

/** The full way's answer for one module: its contracts, warnings, errors and foreign exports. */
function fullReading(relative: string, text: string) {
  const source = sources.parse(path.join(REPO, relative), text);
  const found = contractsDefinedIn(source, new Set(), { root: REPO, morph: sources.morph, tracer });
  return {
    refs: found.refs,
    warnings: found.warnings,
    problems: found.problems,
    foreign: found.refs.length > 0 ? foreignExportsOf(source, sources.morph) : [],
    // The re-exports the full way follows (a type-only or namespace one it leaves alone).
    reExports: source
      .getExportDeclarations()
      .filter((d) => !d.isTypeOnly() && !d.getNamespaceExport())
      .map((d) => d.getModuleSpecifierValue())
      .filter((specifier) => specifier !== undefined),
  };
}

function expectSameReading(relative: string, text: string): boolean {
  const plain = plainContracts(text, relative);
  if (plain === undefined) return false;
  expect({ relative, ...fullReading(relative, text) }).toEqual({
    relative,
    refs: plain.refs,
    warnings: [],
    problems: [],
    foreign: [],
    reExports: plain.reExports,
  });
  return true;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(REPO, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(relative);
    return /\.[cm]?[jt]sx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [relative] : [];
  });
}

describe('the plain reading of a contract file', () => {
  test('says what the full reading says of every fixture file it reads, and reads most contract files', () => {
    let read = 0;
    let candidates = 0;
    for (const relative of sourceFiles('fixtures')) {
      const text = readFileSync(path.join(REPO, relative), 'utf8');
      if (!mayHoldContracts(text)) continue;
      candidates++;
      if (expectSameReading(relative, text)) read++;
    }
    // 96 of 206 on 2026-12-03: the others import a helper they call, re-export, or build tools in code.
    expect(read).toBeGreaterThan(90);
    expect(candidates).toBeGreaterThan(read);
  });

  test.each<[string, string, boolean]>([
    ['plain', "import { defineTool } from 'toolprep';\nexport const a = defineTool({});\n", true],
    ['export default', "import { defineTool } from 'toolprep';\nexport default defineTool({});\n", true],
    [
      'a call of an imported helper',
      "import { defineTool } from 'toolprep';\nimport { f } from './f';\nexport const a = defineTool({ x: f() });\n",
      false,
    ],
    [
      'a factory through a barrel',
      "import { defineTool } from './barrel';\nexport const a = defineTool({});\n",
      false,
    ],
    ['a namespace', "import * as tp from 'toolprep';\nexport const a = tp.defineTool({});\n", false],
    [
      'a local holding a contract',
      "import { defineTool } from 'toolprep';\nconst a = defineTool({});\nexport { a };\n",
      false,
    ],
    [
      'a re-export',
      "import { defineTool } from 'toolprep';\nexport * from './b';\nexport const a = defineTool({});\n",
      false,
    ],
    [
      'a wrapper',
      "import { defineTool } from 'toolprep';\nexport const a = audited(defineTool({}));\n",
      false,
    ],
    [
      'a division',
      "import { defineTool } from 'toolprep';\nexport const a = defineTool({ n: (1) / 2 });\n",
      false,
    ],
    [
      'an exported value beside a contract',
      "import { defineTool } from 'toolprep';\nexport const s = z;\nexport const a = defineTool({});\n",
      false,
    ],
    [
      'a call continued on the next line',
      "import { defineTool } from 'toolprep';\nexport const a = defineTool({})\n(0);\n",
      false,
    ],
    [
      'a barrel',
      "export * from './a.js';\nexport { b as c } from './b';\nexport type { T } from './t';\nexport * as ns from './n';\n",
      true,
    ],
    [
      'a division after a non-null assertion',
      "import { defineTool } from 'toolprep';\nconst n = [1][0]! / 2; export const b = defineTool({}); const z = 4 / 2;\n",
      false,
    ],
    [
      'a division after a property named return',
      "import { defineTool } from 'toolprep';\nconst n = o.return / 2; export const b = defineTool({}); const k = 1 / 2;\n",
      false,
    ],
    [
      'a type-only re-export of everything',
      "import { defineTool } from 'toolprep';\nexport type * from './t.js';\nexport const a = defineTool({});\n",
      false,
    ],
    ['a JSX file', "import { defineTool } from 'toolprep';\nexport const a = defineTool({});\n", false],
  ])('%s: read as text %s', (name, text, read) => {
    const relative = name === 'a JSX file' ? 'src/a.tsx' : `src/case-${name.replace(/\W+/g, '-')}.ts`;
    expect(plainContracts(text, relative) !== undefined).toBe(read);
    if (read) expectSameReading(relative, text);
  });

  test('property: any file it reads, it reads as the full reading does', () => {
    const eol = fc.constantFrom('\n', '\r\n');
    const comment = fc.constantFrom(
      '',
      '/** Search the notes. */',
      '/**\n * Two lines,\n * then tags.\n * @param x no\n */',
      '// a line comment',
      '/* a block */',
      '/** first */ /** second */',
      '/** @deprecated only a tag */',
      '/** kept */ /**/',
    );
    const value = fc.constantFrom(
      "'it\\'s'",
      '"a // not a comment"',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
      '`a ${1 + 2} b`',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of nested templates
      '`nested ${`inner ${3}`}`',
      '/a\\/b[/]c/g',
      'z.string().describe("x /* y */")',
      '[1, { a: [2] }]',
      '(x) => x',
      'helper()',
      '(1) / 2',
      "'\u2028'",
    );
    const statement = fc.oneof(
      fc
        .tuple(comment, fc.constantFrom('a', 'b', 'c'), value, fc.constantFrom(';', ''))
        .map(([doc, name, v, end]) => `${doc} export const ${name} = tool({ description: ${v} })${end}`),
      fc.tuple(comment, value).map(([doc, v]) => `${doc}\nexport default tool({ x: ${v} });`),
      value.map((v) => `const local = ${v};`),
      fc.constant('type T = { a: string; b: number }'),
      fc.constant('export interface I { a: string }'),
      fc.constant('export const other = z.object({});'),
      fc.constant('function f() { return 1; }'),
      fc.constant('const d = tool({});'),
      fc.constant("export * from './x.js';"),
      fc.constant("export type { T } from './t';"),
    );
    const header = fc.constantFrom(
      "import { defineTool as tool } from 'toolprep';",
      "import { defineTool as tool, type ToolContract } from 'toolprep'",
      "/** A file. */\nimport { defineTool as tool } from 'toolprep';\nimport { z } from 'zod';",
      "import { defineTool as tool } from 'toolprep';\nimport helper from './helper';",
    );
    // A statement after a line break, or on the line of the one before (its comments are then trailing).
    const separator = fc.constantFrom('\n', '\n\n', ' ', ' // trailing\n', ' /** trailing */\n');
    let read = 0;
    let file = 0;
    fc.assert(
      fc.property(
        header,
        fc.array(fc.tuple(separator, statement), { maxLength: 5 }),
        eol,
        (head, statements, newline) => {
          const text = `${head}${statements.map(([before, written]) => `${before}${written}`).join('')}\n`;
          const written = newline === '\n' ? text : text.replace(/\n/g, '\r\n');
          if (expectSameReading(`src/generated-${file++}.ts`, written)) read++;
        },
      ),
      { numRuns: 300 },
    );
    expect(read).toBeGreaterThan(30);
  });
});

describe('a re-export resolved without TypeScript', () => {
  test.each<[string, string, boolean]>([
    ['no tsconfig', '', true],
    ['a plain tsconfig', '{ "compilerOptions": { "strict": true, "paths": { "a": ["./src/b.ts"] } } }', true],
    ['rootDirs', '{ "compilerOptions": { "rootDirs": ["src", "generated"] } }', false],
    ['extends', '{ "extends": "./base.json" }', false],
  ])('%s: what it calls included is what TypeScript resolves to', (_name, config, certain) => {
    const root = mkdtempSync(path.join(tmpdir(), 'toolprep-included-'));
    try {
      const files = [
        'src/a.ts',
        'src/a.js',
        'src/b.ts',
        'src/dir/index.ts',
        'src/d.js',
        'src/e.tsx',
        'src/f.ts',
      ];
      for (const file of files) {
        mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        writeFileSync(path.join(root, file), 'export const x = 1;\n');
      }
      if (config) writeFileSync(path.join(root, 'tsconfig.json'), config);
      const included = new Set(
        ['src/a.ts', 'src/b.ts', 'src/dir/index.ts', 'src/d.js', 'src/e.tsx'].map((f) => path.join(root, f)),
      );
      const isIncluded = createIncludedTargets(root, included);
      const resolve = createModuleResolver(root, sources.morph.ts);
      const barrel = path.join(root, 'src/barrel.ts');
      const specifiers = [
        './a',
        './a.js',
        './a.ts',
        '../src/b.js',
        './dir',
        './dir/index.js',
        './d.js',
        './e.js',
        './f.js',
        './missing.js',
        'a',
      ];
      const decided = specifiers.filter((specifier) => isIncluded(specifier, barrel));
      for (const specifier of decided)
        expect([specifier, resolve(specifier, barrel)]).toEqual([
          specifier,
          path.join(root, `src/${specifier.replace(/^\.\.\/src\/|^\.\//, '').replace(/\.[jt]s$/, '')}.ts`),
        ]);
      for (const specifier of decided) expect(included.has(resolve(specifier, barrel) as string)).toBe(true);
      expect(decided).toEqual(certain ? ['./a', './a.js', './a.ts', '../src/b.js', './dir/index.js'] : []);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
