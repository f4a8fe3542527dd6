import { generate } from '@toolprep/build';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { propertyRuns } from '../support/property-runs.js';
import { projectWith } from './throwaway-project.js';

const HEAD = [
  "import { defineTool } from 'toolprep';",
  "import { z } from 'zod';",
  'function audited<T>(tool: T): T {',
  '  return tool;',
  '}',
  'function copied<T extends object>(tool: T): T {',
  '  return { ...tool };',
  '}',
  '',
].join('\n');

/** A contract written in some position of a module: the statements, given the contract's expression. */
interface Position {
  readonly form: string;
  /** Its value goes nowhere (a statement of its own, `void`): missing with a `not-exported` warning is right. */
  readonly dropped?: true;
  readonly write: (contract: string, v: string) => string;
}

/** Every position the issue names, and those beside them: discovery reads some, and must refuse the rest. */
const POSITIONS: Position[] = [
  { form: 'export const', write: (c, v) => `export const ${v} = ${c};` },
  { form: 'export default', write: (c) => `export default ${c};` },
  { form: 'object member', write: (c, v) => `export const ${v} = { key_${v}: ${c} };` },
  { form: 'list element', write: (c, v) => `export const ${v} = [${c}];` },
  { form: 'default object', write: (c, v) => `export default { key_${v}: ${c} };` },
  { form: 'frozen object', write: (c, v) => `export const ${v} = Object.freeze({ key_${v}: ${c} });` },
  { form: 'frozen call', write: (c, v) => `export const ${v} = Object.freeze(${c});` },
  { form: 'identity wrapper', write: (c, v) => `export const ${v} = audited(${c});` },
  { form: 'wrapper, frozen', write: (c, v) => `export const ${v} = Object.freeze({ k: audited(${c}) });` },
  { form: 'copying wrapper', write: (c, v) => `export const ${v} = copied(${c});` },
  { form: 'local, export list', write: (c, v) => `const ${v} = ${c};\nexport { ${v} as ${v}_out };` },
  { form: 'local, held', write: (c, v) => `const ${v} = ${c};\nexport const ${v}_all = { ${v} };` },
  {
    form: 'local, frozen default',
    write: (c, v) => `const ${v} = { k: ${c} };\nexport default Object.freeze(${v});`,
  },
  { form: 'local, member read', write: (c, v) => `const ${v} = { k: ${c} };\nexport const ${v}_k = ${v}.k;` },
  { form: 'local, spread', write: (c, v) => `const ${v} = [${c}];\nexport const ${v}_all = [...${v}];` },
  { form: 'fromEntries', write: (c, v) => `export const ${v} = Object.fromEntries([['k', ${c}]]);` },
  {
    form: 'fromEntries map',
    write: (c, v) => `export const ${v} = Object.fromEntries(['k'].map((n) => [n, ${c}]));`,
  },
  {
    form: 'factory called',
    write: (c, v) => `function make_${v}() {\n  return ${c};\n}\nexport const ${v} = make_${v}();`,
  },
  {
    form: 'factory mapped',
    write: (c, v) => `const make_${v} = () => ${c};\nexport const ${v} = [1].map(make_${v});`,
  },
  { form: 'called function', write: (c, v) => `export const ${v} = (() => ${c})();` },
  { form: 'two levels', write: (c, v) => `export const ${v} = { group: { k: ${c} } };` },
  { form: 'class member', write: (c, v) => `export class C_${v} {\n  static t = ${c};\n}` },
  { form: 'conditional', write: (c, v) => `export const ${v} = Math.random() > 2 ? undefined : ${c};` },
  {
    form: 'registry',
    write: (c, v) => `const ${v}: unknown[] = [];\n${v}.push(${c});\nexport const ${v}_all = ${v};`,
  },
  { form: 'statement', dropped: true, write: (c) => `${c};` },
  { form: 'void', dropped: true, write: (c, v) => `const ${v} = ${c};\nvoid ${v};` },
];

const DEFAULTS = new Set(['export default', 'default object', 'local, frozen default']);

/** A project of one to three modules, each with one or two contracts in random positions, and maybe a barrel. */
const projects = fc
  .record({
    modules: fc.array(fc.array(fc.constantFrom(...POSITIONS), { minLength: 1, maxLength: 2 }), {
      minLength: 1,
      maxLength: 3,
    }),
    barrel: fc.boolean(),
  })
  .map(({ modules, barrel }) => {
    let count = 0;
    const contracts: { file: string; name: string; line: number; position: Position }[] = [];
    const files: Record<string, string> = {};
    modules.forEach((positions, index) => {
      const file = `src/m${index}.ts`;
      let text = HEAD;
      let hasDefault = false;
      for (const chosen of positions) {
        // One default export a module: a second is written as a named one.
        const position = DEFAULTS.has(chosen.form) && hasDefault ? (POSITIONS[0] as Position) : chosen;
        hasDefault ||= DEFAULTS.has(position.form);
        const name = `tool_${count++}`;
        const contract = `defineTool({ name: '${name}', description: 'Tool ${name}.', input: z.object({}) })`;
        const statements = position.write(contract, `v_${name}`);
        const before = statements.slice(0, statements.indexOf('defineTool')).split('\n').length - 1;
        contracts.push({ file, name, line: text.split('\n').length + before, position });
        text += `${statements}\n`;
      }
      files[file] = text;
    });
    if (barrel) files['src/index.ts'] = "export * from './m0.js';\n";
    return { files, contracts };
  });

test('no module with a defineTool call generates without its tools, unless an error names it', async () => {
  await fc.assert(
    fc.asyncProperty(projects, async ({ files, contracts }) => {
      const result = await generate({ root: projectWith(files), cache: false });
      const found = new Set(result.tools.map((tool) => tool.prepared.name));
      const named = new Set(contracts.map((contract) => contract.name));
      // Nothing found that was not written.
      for (const name of found) expect(named).toContain(name);
      for (const { file, name, line, position } of contracts) {
        if (found.has(name)) continue;
        const errorNamesFile = result.problems.some(
          (problem) => problem.severity === 'error' && problem.file === file,
        );
        const warnedDropped =
          position.dropped === true &&
          result.warnings.some(
            (warning) => warning.code === 'not-exported' && warning.file === file && warning.line === line,
          );
        expect(
          errorNamesFile || warnedDropped,
          `${name} (${position.form}) is missing from ${file} with no error naming it:\n${files[file]}\nproblems: ${JSON.stringify(result.problems)}`,
        ).toBe(true);
      }
      // A run with no error is exit 0: then every contract not dropped is a tool.
      if (result.problems.length === 0)
        for (const { name, position } of contracts) if (!position.dropped) expect(found).toContain(name);
    }),
    { numRuns: propertyRuns(15) },
  );
}, 600_000);
