import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { applyPlan } from 'toolprep';
import type { Plan } from 'toolprep/runtime';
import { describe, expect, test } from 'vitest';
import { emitPlanWalk, emitPlanWalks } from '../../src/emit/plan-walk.js';
import { walkGenerated } from '../support/generated-walk.js';

/**
 * The plan's walk is written as code by the build, into the generated module, and made of
 * closures for a plan made at run time. The property suites hold both equal to the reference on
 * random contracts; these rows hold what only generated code could get wrong: user keys and tags
 * written into source, and a server where code generation from strings is refused.
 */

/** Field names that are hostile to an object (`__proto__`) or to JavaScript source. */
const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  '',
  'ключ',
  '"); throw new Error("injected"); ("',
  "'; throw 1; '",
  '\\',
  '\u2028\u2029',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a key that would run if written into a template literal.
  '${globalThis.injected = 1}',
  '</script>',
  '*/ throw 1; /*',
];

const OBJECT_TEXT: Plan['root'] = { parse: ['object'] };

interface Row {
  readonly name: string;
  readonly plan: Plan;
  /** JSON, so that an own `__proto__` key survives as the arguments a client sends. */
  readonly args: string;
  readonly options?: { readonly inverse?: readonly ('nullAbsent' | 'caseFold')[] };
  /** What the walk gives: the repaired arguments, or the refusal's message. */
  readonly expected: { readonly value: unknown } | { readonly refused: string };
}

const hostileFields = (): Row[] =>
  HOSTILE_KEYS.map((key) => ({
    name: `a field named ${JSON.stringify(key)} is read, repaired and kept as an own key`,
    plan: { root: { fields: { [key]: OBJECT_TEXT, after: OBJECT_TEXT } } },
    args: JSON.stringify({ [key]: '{"a":1}', after: '{"b":2}' }),
    expected: { value: JSON.parse(JSON.stringify({ [key]: { a: 1 }, after: { b: 2 } })) },
  }));

const variantPlan = (tags: readonly unknown[]): Plan => ({
  root: {
    tag: 'kind',
    variants: tags.map((tag) => ({ tags: [tag], node: { fields: { body: OBJECT_TEXT } } })),
  },
});

const ROWS: readonly Row[] = [
  ...hostileFields(),
  {
    name: 'a nested object under a hostile key is walked by its own node',
    plan: { root: { fields: { '"]; x[': { parse: ['object'], fields: { '\\"': OBJECT_TEXT } } } } },
    args: JSON.stringify({ '"]; x[': '{"\\\\\\"":"{\\"c\\":3}"}' }),
    expected: { value: { '"]; x[': { '\\"': { c: 3 } } } },
  },
  ...(['s', 1, true, null] as const).map(
    (tag): Row => ({
      name: `a variant tagged ${JSON.stringify(tag)} (a ${tag === null ? 'null' : typeof tag}) is found by its tag`,
      plan: variantPlan(['other', tag]),
      args: JSON.stringify({ kind: tag, body: '{"d":4}' }),
      expected: { value: { kind: tag, body: { d: 4 } } },
    }),
  ),
  {
    name: 'a tag no variant lists leaves the object as it is',
    plan: variantPlan(['a', 'b']),
    args: JSON.stringify({ kind: 'c', body: '{"d":4}' }),
    expected: { value: { kind: 'c', body: '{"d":4}' } },
  },
  {
    name: 'a tag in another case is its variant under caseFold, and only then',
    plan: variantPlan(['file', 'url']),
    args: JSON.stringify({ kind: 'URL', body: '{"d":4}' }),
    options: { inverse: ['caseFold'] },
    expected: { value: { kind: 'URL', body: { d: 4 } } },
  },
  {
    name: 'a tag matching two variants ignoring case picks neither',
    plan: variantPlan(['Url', 'URL']),
    args: JSON.stringify({ kind: 'url', body: '{"d":4}' }),
    options: { inverse: ['caseFold'] },
    expected: { value: { kind: 'url', body: '{"d":4}' } },
  },
  {
    name: 'a tag listed by two variants is the first one’s',
    plan: {
      root: {
        tag: 'kind',
        variants: [
          { tags: ['a'], node: { fields: { first: OBJECT_TEXT } } },
          { tags: ['a'], node: { fields: { second: OBJECT_TEXT } } },
        ],
      },
    },
    args: JSON.stringify({ kind: 'a', first: '{}', second: '{}' }),
    expected: { value: { kind: 'a', first: {}, second: '{}' } },
  },
  {
    name: 'an enum in another case is folded; an exact member is left as it is',
    plan: { root: { fields: { mode: { fold: ['fast', 'exact'] }, other: { fold: ['fast', 'exact'] } } } },
    args: JSON.stringify({ mode: 'FAST', other: 'exact' }),
    options: { inverse: ['caseFold'] },
    expected: { value: { mode: 'fast', other: 'exact' } },
  },
  {
    name: 'a tuple walks each position by its own node, then the rest by the items’ node',
    plan: { root: { fields: { row: { tuple: [OBJECT_TEXT, null], items: { parse: ['array'] } } } } },
    args: JSON.stringify({ row: ['{"a":1}', '{"b":2}', '[3]', '[4]'] }),
    expected: { value: { row: [{ a: 1 }, '{"b":2}', [3], [4]] } },
  },
  {
    name: 'a recursive definition walks every level',
    plan: {
      root: { fields: { tree: { ref: 'Tree' } } },
      defs: { Tree: { parse: ['object'], fields: { children: { items: { ref: 'Tree' } } } } },
    },
    args: JSON.stringify({ tree: { children: ['{"children":["{\\"children\\":[]}"]}'] } }),
    expected: { value: { tree: { children: [{ children: [{ children: [] }] }] } } },
  },
  {
    name: 'both sides of an intersection repair the same object',
    plan: { root: { all: [{ fields: { a: OBJECT_TEXT } }, { fields: { b: OBJECT_TEXT } }] } },
    args: JSON.stringify({ a: '{}', b: '[]', c: '{}' }),
    expected: { value: { a: {}, b: '[]', c: '{}' } },
  },
  {
    name: 'nulls for keys left out go, listed and beyond the declared keys, own keys only',
    plan: {
      root: {
        fields: { kept: OBJECT_TEXT, since: {}, limit: {} },
        nullAbsent: ['since'],
        nullAbsentBeyond: ['kept', 'since', 'limit'],
        rest: { scalar: ['number'] },
      },
    },
    args: JSON.stringify({ kept: '{}', since: null, limit: null, extra: null, n: '7' }),
    options: { inverse: ['nullAbsent'] },
    expected: { value: { kept: {}, limit: null, n: 7 } },
  },
  {
    name: 'a list written as text is refused at its path, under a hostile key',
    plan: { root: { fields: { '"x"': { refuse: [{ item: { type: 'string' } }] } } } },
    args: JSON.stringify({ '"x"': '["a"]' }),
    expected: {
      refused: '"x" is a list written as text — pass the array itself, not JSON written as text',
    },
  },
  {
    name: 'a lone value becomes a one-item list; text that starts like JSON does not',
    plan: {
      root: {
        fields: {
          tags: { parse: ['array'], lone: { item: { type: 'string' } } },
          cut: { parse: ['array'], lone: { item: { type: 'string' } } },
        },
      },
    },
    args: JSON.stringify({ tags: 'a', cut: '["a"' }),
    expected: { value: { tags: ['a'], cut: '["a"' } },
  },
];

type Outcome = { value: unknown } | { refused: string };

function outcome(run: () => unknown): Outcome {
  try {
    return { value: run() };
  } catch (error) {
    return { refused: (error as Error).message };
  }
}

describe('the plan as the code the build writes, and as closures', () => {
  test.each(ROWS)('$name', (row) => {
    const generated = outcome(() => walkGenerated(row.plan, JSON.parse(row.args), row.options));
    expect(generated).toEqual(row.expected);
    expect(outcome(() => applyPlan(row.plan, JSON.parse(row.args), row.options))).toEqual(generated);
    if ('value' in generated && generated.value !== null && typeof generated.value === 'object')
      expect(Object.getPrototypeOf(generated.value)).toBe(Object.prototype);
    expect((globalThis as { injected?: unknown }).injected).toBeUndefined();
  });

  test('where code generation from strings is refused, the generated walk runs and gives the same', async () => {
    // Node's own switch makes `new Function` throw EvalError, as Workers and a strict CSP do; the
    // walks are bundled as a server's bundler bundles the generated module.
    const dir = mkdtempSync(path.join(tmpdir(), 'toolprep-walks-'));
    try {
      const rows = path.join(dir, 'rows.json');
      writeFileSync(rows, JSON.stringify(ROWS));
      writeFileSync(
        path.join(dir, 'walks.ts'),
        // Every row a tool of one walks module, as a project's tools are: what they share is written once.
        `export const walks = ${emitPlanWalks(ROWS.map((row, index) => [`"${index}"`, emitPlanWalk(row.plan, [0, 1, 2, 3])])).join('')};\n`,
      );
      writeFileSync(
        path.join(dir, 'run.ts'),
        `import { readFileSync } from 'node:fs';
import { stepsIndex } from ${JSON.stringify(path.resolve('src/manifest/plan-walk.ts'))};
import { PLAN_WALK_HELPERS } from ${JSON.stringify(path.resolve('src/runtime/plan-steps.ts'))};
import { walks } from './walks.ts';
const factories = walks(PLAN_WALK_HELPERS);
let refused = false;
try { new Function('return 1'); } catch (error) { refused = error instanceof EvalError; }
const outcomes = JSON.parse(readFileSync(${JSON.stringify(rows)}, 'utf8')).map((row, index) => {
  const walk = factories[index]()[stepsIndex(row.plan, row.options?.inverse)];
  try { return { value: walk(JSON.parse(row.args), { path: [], maxDepth: 64 }) }; }
  catch (error) { return { refused: error.message }; }
});
process.stdout.write(JSON.stringify({ refused, outcomes }));`,
      );
      const bundle = path.join(dir, 'run.mjs');
      await build({
        entryPoints: [path.join(dir, 'run.ts')],
        bundle: true,
        format: 'esm',
        platform: 'node',
        outfile: bundle,
        logLevel: 'error',
      });
      const answer = JSON.parse(
        execFileSync(process.execPath, ['--disallow-code-generation-from-strings', bundle], {
          encoding: 'utf8',
        }),
      );
      expect(answer.refused).toBe(true);
      // JSON carries an own `__proto__` key back as one, as it carried the arguments there.
      expect(answer.outcomes).toEqual(JSON.parse(JSON.stringify(ROWS.map((row) => row.expected))));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
