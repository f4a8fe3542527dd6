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
  /** The module URLs the process resolved before it wrote its answer to the request with this id. */
  resolvedBeforeAnswer(id: number): string[];
}

/**
 * Writes a module-resolution hook into `dir` that records every module a Node process resolves:
 * proof of what a server loads, not a guess from its source. Each JSON-RPC answer the process
 * writes to stdout is marked in the same log, in the order it happened, so that what was loaded
 * before an answer can be told from what was loaded after it.
 */
export function createModuleRecorder(dir: string): ModuleRecorder {
  const log = path.join(dir, `resolved-${process.pid}-${Date.now()}.log`);
  writeFileSync(log, '');
  const lines = () => readFileSync(log, 'utf8').trim().split('\n');
  writeFileSync(
    path.join(dir, 'record-modules.mjs'),
    "import { appendFileSync } from 'node:fs';\nexport async function resolve(specifier, context, next) {\n  const result = await next(specifier, context);\n  appendFileSync(process.env.RESOLVED_LOG, result.url + '\\n');\n  return result;\n}\n",
  );
  const register = path.join(dir, 'register.mjs');
  writeFileSync(
    register,
    [
      "import { appendFileSync } from 'node:fs';",
      "import { register } from 'node:module';",
      "register('./record-modules.mjs', import.meta.url);",
      'const write = process.stdout.write.bind(process.stdout);',
      'process.stdout.write = (chunk, ...rest) => {',
      '  for (const [, id] of String(chunk).matchAll(/"id":(\\d+)\\}$/gm)) appendFileSync(process.env.RESOLVED_LOG, "answer " + id + "\\n");',
      '  return write(chunk, ...rest);',
      '};',
      '',
    ].join('\n'),
  );
  return {
    register,
    env: { RESOLVED_LOG: log },
    resolved: () => lines().filter((line) => !line.startsWith('answer ')),
    resolvedBeforeAnswer: (id) => {
      const all = lines();
      const answered = all.indexOf(`answer ${id}`);
      if (answered === -1) throw new Error(`no answer to request ${id} was written`);
      return all.slice(0, answered).filter((line) => !line.startsWith('answer '));
    },
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
