import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { linkPackages, REPO } from '../support/fixture-project.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A throwaway project with these source files; toolprep and zod linked in; removed after each test. */
export function projectWith(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'toolprep-discovery-'));
  made.push(dir);
  linkPackages(dir);
  symlinkSync(path.join(REPO, 'node_modules/zod'), path.join(dir, 'node_modules/zod'));
  writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFiles(dir, files);
  return dir;
}

/** Writes (or overwrites) source files of a project. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
}
