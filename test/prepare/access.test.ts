import { type Problem, prepareToolSet, ToolprepError } from '@toolprep/build';
import { defineTool } from 'toolprep';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

/**
 * Who may call what, decided at build: the contract's `scopes` and the config's `access` rules
 * (by name, pattern or `group:<name>`), recorded as each prepared tool's `access`.
 */

const input = z.object({ id: z.string() });
const tool = (extra: Record<string, unknown> = {}) =>
  defineTool({ description: 'Does one thing well.', input, ...extra });
type Contracts = Record<string, ReturnType<typeof tool>>;
type Options = Parameters<typeof prepareToolSet>[1];

type Outcome =
  | { readonly access: Record<string, unknown> }
  | { readonly problems: readonly Pick<Problem, 'code' | 'tool' | 'field' | 'file'>[] };

function accessOf(contracts: Contracts, options: Options = {}, warnings: Problem[] = []): Outcome {
  try {
    const set = prepareToolSet(contracts, { warn: (problem) => warnings.push(problem), ...options });
    return { access: Object.fromEntries(set.prepared.map(({ name, access }) => [name, access ?? null])) };
  } catch (error) {
    if (!(error instanceof ToolprepError)) throw error;
    return {
      problems: error.problems.map(({ code, tool, field, file }) => ({
        code,
        ...(tool === undefined ? {} : { tool }),
        ...(field === undefined ? {} : { field }),
        ...(file === undefined ? {} : { file }),
      })),
    };
  }
}

describe('access, case by case', () => {
  test.each<[string, Contracts, Options, Outcome]>([
    ['no scopes anywhere: nothing recorded', { a: tool() }, {}, { access: { a: null } }],
    [
      "the contract's scopes, sorted, each once",
      { a: tool({ scopes: ['notes:write', 'notes:read', 'notes:write'] }) },
      {},
      { access: { a: { scopes: ['notes:read', 'notes:write'] } } },
    ],
    ['an empty list needs nothing', { a: tool({ scopes: [] }) }, {}, { access: { a: null } }],
    [
      'config rules add to the contract, by name, pattern and group; a rule never widens',
      {
        admin_purge: tool({ scopes: ['notes:write'], group: 'admin' }),
        invoices: tool({ group: 'billing' }),
        status: tool({ group: 'admin' }),
      },
      {
        groups: { admin: { description: 'Admin.' }, billing: { description: 'Billing.' } },
        access: {
          scopes: { 'admin_*': ['admin'], 'group:billing': ['billing:read'], invoices: ['billing:read'] },
        },
      },
      {
        access: {
          admin_purge: { scopes: ['admin', 'notes:write'] },
          invoices: { scopes: ['billing:read'] },
          status: null,
        },
      },
    ],
    [
      'public tools, by name or group',
      { status: tool({ group: 'info' }), echo: tool({ group: 'info' }), other: tool({ group: 'x' }) },
      {
        groups: { info: { description: 'Info.' }, x: { description: 'X.' } },
        access: { public: ['group:info'] },
      },
      { access: { status: { public: true }, echo: { public: true }, other: null } },
    ],
    [
      'scopes that are not a list',
      { a: tool({ scopes: 'notes:read' }) },
      {},
      { problems: [{ code: 'invalid-scopes', tool: 'a', field: 'scopes' }] },
    ],
    [
      'a scope that is not an OAuth scope token names its entry',
      { a: tool({ scopes: ['notes:read', 'notes read', 7, 'say"hi'] }) },
      {},
      {
        problems: [
          { code: 'invalid-scopes', tool: 'a', field: 'scopes[1]' },
          { code: 'invalid-scopes', tool: 'a', field: 'scopes[2]' },
          { code: 'invalid-scopes', tool: 'a', field: 'scopes[3]' },
        ],
      },
    ],
    [
      'a public tool with scopes of its contract',
      { status: tool({ scopes: ['ops:read'] }) },
      { access: { public: ['status'] } },
      { problems: [{ code: 'access-conflict', tool: 'status', field: 'scopes' }] },
    ],
    [
      'a public tool with scopes of the config',
      { status: tool() },
      { access: { public: ['st*'], scopes: { status: ['ops:read'] } } },
      { problems: [{ code: 'access-conflict', tool: 'status', field: 'scopes' }] },
    ],
    [
      'a scopes rule that names no tool is an error: it would protect nothing',
      { a: tool() },
      { access: { scopes: { 'admim_*': ['admin'], 'group:nope': ['x'] } } },
      {
        problems: [
          { code: 'name-matches-nothing', field: "access.scopes['admim_*']", file: 'toolprep.config.ts' },
          { code: 'name-matches-nothing', field: "access.scopes['group:nope']", file: 'toolprep.config.ts' },
        ],
      },
    ],
    [
      'a config scope that is not a token',
      { a: tool() },
      { access: { scopes: { a: ['has space'] } } },
      { problems: [{ code: 'config-invalid-option', file: 'prepareToolSet options' }] },
    ],
    [
      'an unknown key of access',
      { a: tool() },
      { access: { scope: { a: ['x'] } } as never },
      { problems: [{ code: 'config-unknown-option', file: 'prepareToolSet options' }] },
    ],
    [
      'an empty list of config scopes',
      { a: tool() },
      { access: { scopes: { a: [] } } },
      { problems: [{ code: 'config-invalid-option', file: 'prepareToolSet options' }] },
    ],
  ])('%s', (_name, contracts, options, outcome) => {
    expect(accessOf(contracts, options)).toEqual(outcome);
  });

  test('a public rule that names no tool is a warning: it opens nothing', () => {
    const warnings: Problem[] = [];
    expect(accessOf({ a: tool() }, { access: { public: ['statsu'] } }, warnings)).toEqual({
      access: { a: null },
    });
    expect(warnings.map(({ code, field, severity }) => ({ code, field, severity }))).toEqual([
      { code: 'name-matches-nothing', field: 'access.public', severity: 'warning' },
    ]);
  });

  test("access is in the tool's digest, whether the contract or the config gives it", () => {
    const digest = (contracts: Contracts, options: Options = {}) =>
      prepareToolSet(contracts, { warn: () => {}, ...options }).prepared[0]?.digest;
    const open = digest({ a: tool() });
    const byContract = digest({ a: tool({ scopes: ['x'] }) });
    const byConfig = digest({ a: tool() }, { access: { scopes: { a: ['x'] } } });
    expect(new Set([open, byContract, digest({ a: tool({ scopes: ['y'] }) })]).size).toBe(3);
    expect(byConfig).toBe(byContract);
    expect(digest({ a: tool() }, { access: { public: ['a'] } })).not.toBe(open);
  });
});
