import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { bundlers } from '../support/bundlers.js';
import { copyFixture, type FixtureProject } from '../support/fixture-project.js';

// Each test runs the CLI as a process several times, 5-22 s each on a busy machine.
vi.setConfig({ testTimeout: 180_000 });

const projects: FixtureProject[] = [];
afterEach(() => {
  for (const copy of projects.splice(0)) copy.remove();
});
function project(): FixtureProject {
  const copy = copyFixture('discover-out-of-sight');
  projects.push(copy);
  return copy;
}

/** Adds the module whose tools are made under `Object.fromEntries(names.map(…))`. */
function addGeneratedNames(fixture: FixtureProject): void {
  copyFileSync(
    path.join(fixture.dir, 'later/generated-names.ts'),
    path.join(fixture.dir, 'src/tools/generated-names.ts'),
  );
}

const OUT_OF_SIGHT =
  '[toolprep] src/tools/generated-names.ts:8: defineTool() result is made inside a function passed to `names.map(…)`, where discovery cannot see which export holds it, so it would not be a tool';

describe('toolprep generate and check: nothing dropped without an error', () => {
  test('frozen and wrapped tools are found; tools made under Object.fromEntries fail generate and check', () => {
    const fixture = project();
    const generated = fixture.cli('generate');
    expect(generated.stderr).toBe('');
    expect(generated.status).toBe(0);
    const manifest = fixture.read('toolprep.manifest.json');
    expect(
      JSON.parse(manifest).tools.map((tool: { name: string; source: string }) => [tool.name, tool.source]),
    ).toEqual([
      ['ping', 'src/tools/ping.ts#ping'],
      ['read_note', 'src/tools/wrapped.ts#readNote'],
      ['search_notes', 'src/tools/frozen.ts#noteTools.searchNotes'],
    ]);

    addGeneratedNames(fixture);
    const checked = fixture.cli('check');
    expect(checked.status).toBe(1);
    expect(checked.stderr).toContain(OUT_OF_SIGHT);
    expect(checked.stderr).toContain('write a named tool factory');
    const again = fixture.cli('generate');
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(OUT_OF_SIGHT);
    expect(fixture.read('toolprep.manifest.json')).toBe(manifest);
  });

  test('a bundler build fails with the same error, since it runs the same generation', async () => {
    const fixture = project();
    addGeneratedNames(fixture);
    await expect(bundlers.esbuild(fixture.dir, path.join(fixture.dir, 'out'), {})).rejects.toThrow(
      'src/tools/generated-names.ts:8: defineTool() result is made inside a function passed to `names.map(…)`',
    );
  });
});
