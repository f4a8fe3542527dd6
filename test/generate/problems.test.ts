import { readdirSync } from 'node:fs';
import path from 'node:path';
import { formatProblem, type Problem, type ProblemCode, ToolprepError } from '@toolprep/build';
import { afterEach, describe, expect, test } from 'vitest';
import { createGeneratorContext } from '../../src/generate/context.js';
import { describeError } from '../../src/shared/build/problems.js';
import { copyFixture, type FixtureProject, REPO } from '../support/fixture-project.js';

const projects: FixtureProject[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.remove();
});

/** The stable code of every problem each broken project gives, in order. */
const CODES: Record<string, ProblemCode[]> = {
  'access-conflict': ['access-conflict'],
  'bad-config': ['config-unknown-option'],
  'bad-config-value': ['config-invalid-option'],
  'duplicate-names': ['duplicate-name'],
  'empty-description': ['empty-description'],
  'extend-not-object': ['config-invalid-option'],
  'extension-conflict': ['key-clash'],
  'include-matches-nothing': ['include-matches-nothing'],
  'invalid-name': ['invalid-name'],
  'no-tools': ['no-tools'],
  'not-a-contract': ['not-a-contract-when-loaded'],
  'params-conflict': ['key-clash'],
  'same-output': ['config-invalid-option'],
  'scalar-root': ['input-not-object'],
  'throws-on-load': ['load-threw'],
  unrepresentable: ['unrepresentable'],
};

describe('problems are data, from where they are found to where they are printed', () => {
  test('every broken project is covered here', () => {
    expect(readdirSync(path.join(REPO, 'fixtures/broken')).sort()).toEqual(Object.keys(CODES).sort());
  });

  test.each(Object.entries(CODES))(
    '%s: each problem has its code, severity and place',
    async (name, codes) => {
      const project = copyFixture(`broken/${name}`);
      projects.push(project);
      const outcome = await createGeneratorContext({ root: project.dir, cache: false }).run();
      expect(outcome.problems.map((problem) => problem.code)).toEqual(codes);
      for (const problem of outcome.problems) {
        expect(problem.severity).toBe('error');
        // A project without tools has no one file to blame.
        if (problem.code !== 'no-tools')
          expect(problem.file).toMatch(/^(src\/tools\/tools\.ts|toolprep\.config\.ts)$/);
      }
      expect(outcome.written).toEqual([]);
    },
  );

  test('one formatter: place, tool and field, message, hint; warnings say so', () => {
    const problem: Problem = {
      severity: 'warning',
      code: 'unrepresentable',
      file: 'src/a.ts',
      line: 4,
      tool: 'read',
      field: 'input.when',
      message: 'Date cannot be represented in JSON Schema; shown as {}',
      hint: 'take an ISO string',
    };
    expect(formatProblem(problem)).toBe(
      '[toolprep] warning: src/a.ts:4 tool "read", input.when: Date cannot be represented in JSON Schema; shown as {} (take an ISO string)',
    );
    expect(formatProblem({ severity: 'error', code: 'build-failed', message: 'could not be built' })).toBe(
      '[toolprep] could not be built',
    );
  });

  test("the user's mistakes are their problems; anything else is a bug in toolprep, with its stack", () => {
    const mistake = new ToolprepError([
      {
        severity: 'error',
        code: 'config-unknown-option',
        file: 'toolprep.config.ts',
        message: 'unknown option "x"',
      },
    ]);
    expect(describeError(mistake)).toBe('[toolprep] toolprep.config.ts: unknown option "x"');
    const bug = describeError(new TypeError("Cannot read properties of undefined (reading 'def')"));
    expect(bug).toMatch(
      /^\[toolprep\] this is a bug in toolprep; please report it with what follows:\nTypeError: Cannot read properties of undefined \(reading 'def'\)\n\s+at /,
    );
  });
});
