import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO } from './fixture-project.js';

/**
 * A temporary ES module project whose node_modules link this repository's packages, except that
 * `ai` is AI SDK 7 (`ai7` here) and the packages in `own` are left for the caller to install.
 */
export function ai7Project(prefix: string, own: readonly string[] = []): string {
  const project = mkdtempSync(path.join(tmpdir(), prefix));
  const modules = path.join(project, 'node_modules');
  mkdirSync(modules, { recursive: true });
  for (const name of readdirSync(path.join(REPO, 'node_modules')))
    if (!['.bin', '.cache', 'ai', ...own].includes(name))
      symlinkSync(path.join(REPO, 'node_modules', name), path.join(modules, name));
  symlinkSync(path.join(REPO, 'node_modules/ai7'), path.join(modules, 'ai'));
  writeFileSync(path.join(project, 'package.json'), '{ "type": "module" }\n');
  return project;
}
