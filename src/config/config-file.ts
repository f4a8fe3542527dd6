import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadModules } from '../load/load-modules.js';
import { type Problem, ToolprepError } from '../shared/build/problems.js';
import { projectPath } from '../shared/build/project-path.js';

const CONFIG_NAMES = [
  'toolprep.config.ts',
  'toolprep.config.mts',
  'toolprep.config.js',
  'toolprep.config.mjs',
];

/** The config file to use: the one named (relative to the root), else the first found in the root. */
export function resolveConfigFile(root: string, named: string | undefined): string | undefined {
  return named ? path.resolve(root, named) : findConfigFile(root);
}

function findConfigFile(root: string): string | undefined {
  return CONFIG_NAMES.map((name) => path.join(root, name)).find((file) => existsSync(file));
}

/** Evaluates the config file with the same loader as the contracts and returns its default export. */
export async function loadConfigFile(root: string, file: string, cacheDir: string): Promise<unknown> {
  const relative = projectPath(root, file);
  const fail = (problem: Omit<Problem, 'severity' | 'file'>): never => {
    throw new ToolprepError([{ severity: 'error', file: relative, ...problem }]);
  };
  const loaded = await loadModules(root, [relative], cacheDir);
  if (!loaded.ok) {
    return fail({
      code: 'config-not-loaded',
      message: `could not be built: ${loaded.failures.map((failure) => failure.message).join('; ')}`,
    });
  }
  const module = loaded.modules.get(relative);
  if (!module?.exports) {
    const cause = module?.error instanceof Error ? module.error.message : String(module?.error);
    return fail({ code: 'config-not-loaded', message: `threw while loading: ${cause}` });
  }
  if (!('default' in module.exports)) {
    return fail({
      code: 'config-no-default-export',
      message: 'has no default export',
      hint: 'write `export default defineConfig({ ... })`',
    });
  }
  return module.exports.default;
}
