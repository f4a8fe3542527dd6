import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Runs a script with Node in `dir`, recording every module the process resolves through a
 * module-resolution hook: proof of what a server loads, not a guess from its source.
 */
export function runRecordingModules(
  dir: string,
  script: string,
  ...args: string[]
): { stdout: string; stderr: string; resolved: string[] } {
  const log = path.join(dir, `resolved-${process.pid}-${Date.now()}.log`);
  writeFileSync(log, '');
  writeFileSync(
    path.join(dir, 'record-modules.mjs'),
    "import { appendFileSync } from 'node:fs';\nexport async function resolve(specifier, context, next) {\n  const result = await next(specifier, context);\n  appendFileSync(process.env.RESOLVED_LOG, result.url + '\\n');\n  return result;\n}\n",
  );
  writeFileSync(
    path.join(dir, 'register.mjs'),
    "import { register } from 'node:module';\nregister('./record-modules.mjs', import.meta.url);\n",
  );
  const run = spawnSync(process.execPath, ['--import', './register.mjs', script, ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, RESOLVED_LOG: log },
  });
  return { stdout: run.stdout, stderr: run.stderr, resolved: readFileSync(log, 'utf8').trim().split('\n') };
}
