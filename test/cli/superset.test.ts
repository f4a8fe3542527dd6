import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { BUILD_PACKAGE, copyFixture, type FixtureProject, REPO } from '../support/fixture-project.js';

/**
 * `toolprep check --explain` proves the superset on the user's own contracts: values each contract
 * accepts, from its library's own JSON Schema, validate against every document toolprep emits (MCP,
 * agent, each profile's). A toolprep that breaks the flattening's superset fails it: the sabotage.
 */

/**
 * A budget per tool that the clock never reaches: each pass tries all its values (at most 400), so
 * what a test sees does not depend on how busy the machine is. Under the default 250 ms a pass on
 * a loaded machine can stop before the value that shows a sabotage, and the command then reports
 * only the stale manifest: an empty stderr.
 */
const UNHURRIED = ['--explain-ms', '600000'];

let fixture: FixtureProject;
beforeAll(() => {
  fixture = copyFixture('superset');
  expect(fixture.cli('generate').status).toBe(0);
});
afterAll(() => fixture.remove());

test('every document of a flattened union, with four profiles, takes what the contracts accept', () => {
  const result = fixture.cli('check', '--explain', ...UNHURRIED);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  const proven = /every document takes the (\d+) values the contracts accept/.exec(result.stdout)?.[1];
  expect(Number(proven)).toBeGreaterThan(10);
});

/** `check --explain` by a copy of the built @toolprep/build with `from` replaced by `to` in `file`. */
function checkWithSabotage(file: string, from: string, to: string) {
  // Under this repository's node_modules, so that the copy finds the build's dependencies; a folder
  // of its own, so that another run of this file (in another vitest) never removes it mid-command.
  const parent = path.join(REPO, 'node_modules/.cache/toolprep-test');
  mkdirSync(parent, { recursive: true });
  const sabotaged = mkdtempSync(path.join(parent, 'sabotaged-build-'));
  cpSync(path.join(BUILD_PACKAGE, 'dist'), path.join(sabotaged, 'dist'), { recursive: true });
  const target = path.join(sabotaged, 'dist/src', file);
  const source = readFileSync(target, 'utf8');
  const broken = source.replace(from, to);
  expect(broken).not.toBe(source);
  writeFileSync(target, broken);
  try {
    return spawnSync(
      process.execPath,
      [path.join(sabotaged, 'dist/src/cli/main.js'), 'check', '--explain', '--no-cache', ...UNHURRIED],
      { cwd: fixture.dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
    );
  } finally {
    rmSync(sabotaged, { recursive: true, force: true });
  }
}

test('sabotage: a flattening that drops a tag of the union is caught, named, and fails the command', () => {
  const result = checkWithSabotage(
    'prepare/flatten.js',
    'enum: variants.flatMap((variant) => variant.tags),',
    'enum: variants.flatMap((variant) => variant.tags).slice(1),',
  );
  expect(result.status).toBe(1);
  expect(result.stderr).toMatch(
    /src\/tools\/shapes\.ts:\d+ .*send_message.*toolprep's mcp document refuses \{"to":"(person|channel)",.*which the contract accepts: \/to must be equal to one of the allowed values.*bug in toolprep/s,
  );
});

test('sabotage: params left out of the document a strict input is shown in are caught, as a call sends them', () => {
  const result = checkWithSabotage('prepare/merge-params.js', '...propertiesOf(params), ', '');
  expect(result.status).toBe(1);
  expect(result.stderr).toMatch(
    /src\/tools\/shapes\.ts:\d+ .*archive_note.*toolprep's mcp document refuses \{[^}]*"notebook":[^}]*\}, which the contract accepts: \(root\) must NOT have additional properties.*bug in toolprep/s,
  );
});

test('the time budget per tool bounds the pass, and the tools it cut short are named', () => {
  const result = fixture.cli('check', '--explain', '--explain-ms', '0');
  expect(result.status).toBe(0);
  expect(result.stdout).toMatch(
    /no value the contracts accept was tried; out of time before every value was tried: send_message, schedule_meeting, archive_note;/,
  );
});
