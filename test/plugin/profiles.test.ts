import path from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PROFILE_NAMES } from '../../src/manifest/profiles.js';
import { type BundlerName, bundlers } from '../support/bundlers.js';
import { copyFixture, type FixtureProject } from '../support/fixture-project.js';
import { runRecordingModules } from '../support/record-modules.js';

/**
 * A project that prepares every profile: the CLI and the plugins write the same bytes, the
 * manifest holds each tool's documents and sizes per profile, `inspect` shows them, and the built
 * server undoes each provider's answers before the contract's parser.
 */
const OUTPUTS = ['toolprep.manifest.json', 'src/toolprep.gen.ts'];

let reference: FixtureProject;
beforeAll(() => {
  reference = copyFixture('profiles');
  const generate = reference.cli('generate');
  expect(generate.stderr).toBe('');
  expect(generate.status).toBe(0);
});
afterAll(() => reference.remove());

test('the manifest holds each tool under every profile, with its size, and totals per profile', () => {
  const manifest = JSON.parse(reference.read('toolprep.manifest.json'));
  for (const tool of manifest.tools) {
    expect(Object.keys(tool.profiles)).toEqual([...PROFILE_NAMES]);
    expect(Object.keys(tool.size.profiles)).toEqual([...PROFILE_NAMES]);
    // Counted with o200k_base over what the provider is sent: the name, the description, the document.
    for (const profile of PROFILE_NAMES) {
      const sent = JSON.stringify({
        name: tool.name,
        description: tool.description,
        parameters: tool.profiles[profile].inputSchema,
      });
      expect(tool.size.profiles[profile]).toEqual({
        bytes: Buffer.byteLength(sent),
        tokens: countTokens(sent),
      });
    }
  }
  expect(tool(manifest, 'search_notes').profiles['anthropic-strict'].strictBudget).toEqual({
    optional: 4,
    unions: 0,
  });
  expect(Object.keys(manifest.totals.profiles)).toEqual([...PROFILE_NAMES]);
});

// biome-ignore lint/suspicious/noExplicitAny: a manifest read back from its JSON.
function tool(manifest: { tools: { name: string }[] }, name: string): any {
  return manifest.tools.find((candidate) => candidate.name === name);
}

test('inspect shows the tokens each profile costs, and each profile document of a tool', () => {
  const list = reference.cli('inspect');
  expect(list.status).toBe(0);
  for (const profile of PROFILE_NAMES)
    expect(list.stdout).toMatch(new RegExp(`\\n  as ${profile} +\\d+ tokens`));
  const one = reference.cli('inspect', 'search_notes');
  expect(one.stdout).toMatch(/\n {2}openai-strict: \d+ bytes · \d+ tokens/);
  expect(one.stdout).toContain(
    '\n  as openai-strict\n    query: string  (at least 1 character)\n    limit: integer | null  Default: 10. (1 to 50)\n    sort: "Newest" | "Oldest" | null',
  );
});

test('check names the profile whose document changed', () => {
  const project = copyFixture('profiles');
  try {
    expect(project.cli('generate').status).toBe(0);
    project.write('src/tools/notes.ts', project.read('src/tools/notes.ts').replace('.max(50)', '.max(40)'));
    const check = project.cli('check');
    expect(check.status).toBe(1);
    expect(check.stdout + check.stderr).toMatch(
      /~ tool search_notes[\s\S]*~ profile openai-strict: document changed/,
    );
  } finally {
    project.remove();
  }
});

test('a set that one strict Anthropic request cannot send whole is a warning naming what it spends', () => {
  const project = copyFixture('profiles');
  try {
    const optionalFields = ['a', 'b', 'c', 'd', 'e'].map((key) => `${key}: z.string().optional()`).join(', ');
    const many = Array.from(
      { length: 5 },
      (_, index) =>
        `export const filter${index} = defineTool({ description: 'Filter ${index}.', input: z.object({ ${optionalFields} }) });`,
    );
    project.write(
      'src/tools/filters.ts',
      `import { defineTool } from 'toolprep';\nimport { z } from 'zod';\n${many.join('\n')}\n`,
    );
    const generate = project.cli('generate');
    expect(generate.status).toBe(0);
    expect(generate.stderr).toMatch(
      /\[toolprep\] warning: profile anthropic-strict: one request with all \d+ tools would send \d+ optional parameters \(filter0 5, filter1 5, filter2 5, filter3 5, filter4 5, \d+ more\), over the limit of 24 \(send fewer tools per request/,
    );
  } finally {
    project.remove();
  }
});

describe.each(['vite', 'webpack'] as BundlerName[])('%s', (name) => {
  let project: FixtureProject;
  let outDir: string;
  beforeAll(async () => {
    project = copyFixture('profiles');
    outDir = path.join(project.dir, 'out', name);
    await bundlers[name](project.dir, outDir, {});
  }, 60_000);
  afterAll(() => project.remove());

  test('the plugin writes the same bytes as toolprep generate', () => {
    for (const file of OUTPUTS) expect(project.read(file)).toBe(reference.read(file));
  });

  test("the bundle undoes each provider's answers before the contract's parser", () => {
    const run = runRecordingModules(project.dir, path.join(outDir, 'main.js'));
    expect(run.stderr).toBe('');
    const results = JSON.parse(run.stdout);
    const search = (sort: string) => ({
      ok: true,
      value: { query: 'cats', limit: 10, sort, within: { folder: 'a' } },
    });
    // An enum in another case is repaired on every call (the repair caseFold), whatever the profile.
    for (const profile of ['anthropic-strict', 'openai-strict', 'anthropic', 'gemini', 'gemini-openapi'])
      expect(results[profile]).toEqual(search('Newest'));
    // The strict `tag` variant refuses `to` and `reason`: their nulls go; the plain object strips nothing else.
    expect(results.edit).toEqual({ ok: true, value: { action: 'tag', path: 'a.md', tags: ['x'] } });
  });
});
