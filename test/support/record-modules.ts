import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface ModuleRecorder {
  /** Pass to node as `--import <register>`. */
  readonly register: string;
  /** The environment the recorded process needs. */
  readonly env: Record<string, string>;
  /** Every module URL the process has resolved so far. */
  resolved(): string[];
}

/**
 * Writes a module-resolution hook into `dir` that records every module a Node process resolves:
 * proof of what a server loads, not a guess from its source.
 */
export function createModuleRecorder(dir: string): ModuleRecorder {
  const log = path.join(dir, `resolved-${process.pid}-${Date.now()}.log`);
  writeFileSync(log, '');
  writeFileSync(
    path.join(dir, 'record-modules.mjs'),
    "import { appendFileSync } from 'node:fs';\nexport async function resolve(specifier, context, next) {\n  const result = await next(specifier, context);\n  appendFileSync(process.env.RESOLVED_LOG, result.url + '\\n');\n  return result;\n}\n",
  );
  const register = path.join(dir, 'register.mjs');
  writeFileSync(
    register,
    "import { register } from 'node:module';\nregister('./record-modules.mjs', import.meta.url);\n",
  );
  return {
    register,
    env: { RESOLVED_LOG: log },
    resolved: () => readFileSync(log, 'utf8').trim().split('\n'),
  };
}

/** Runs a script with Node in `dir`, recording every module it resolves. */
export function runRecordingModules(
  dir: string,
  script: string,
  ...args: string[]
): { stdout: string; stderr: string; resolved: string[] } {
  const recorder = createModuleRecorder(dir);
  const run = spawnSync(process.execPath, ['--import', recorder.register, script, ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, ...recorder.env },
  });
  return { stdout: run.stdout, stderr: run.stderr, resolved: recorder.resolved() };
}
