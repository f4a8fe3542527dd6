import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { BUILD_PACKAGE, REPO } from '../support/fixture-project.js';

interface PackageJson {
  name: string;
  version: string;
  keywords?: string[];
  repository?: { url: string; directory?: string };
  homepage?: string;
  bugs?: { url: string };
  peerDependencies?: Record<string, string>;
  dependencies?: Record<string, string>;
}
const read = (folder: string) =>
  JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as PackageJson;
const runtime = read(REPO);
const build = read(BUILD_PACKAGE);

test('@toolprep/build asks for the toolprep of its own version: the manifest it writes is the one that runtime reads', () => {
  expect([runtime.name, build.name]).toEqual(['toolprep', '@toolprep/build']);
  expect(build.version).toBe(runtime.version);
  expect(build.peerDependencies?.toolprep).toBe(runtime.version);
  expect(runtime.dependencies).toBeUndefined();
});

test.each([runtime, build])('$name says where it comes from and what it is for', (manifest) => {
  expect(manifest.keywords).toEqual(expect.arrayContaining(['mcp', 'llm', 'zod', 'json-schema']));
  expect(manifest.repository?.url).toMatch(/^git\+https:\/\/github\.com\/toolprep\/toolprep\.git$/);
  expect(manifest.homepage).toMatch(/^https:\/\//);
  expect(manifest.bugs?.url).toMatch(/\/issues$/);
});
