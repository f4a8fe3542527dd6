import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BUILD_IDENTITY, packageVersion } from '../shared/build/build-identity.js';
import { contentDigest } from '../shared/build/canonical-json.js';
import { isRecord } from '../shared/run/is-record.js';
import type { ResolvedToolprepConfig, ToolprepConfig } from './options-schema.js';

export type {
  FINDABILITY_RANKERS,
  PrepareSettings,
  ResolvedToolprepConfig,
  ToolprepConfig,
} from './options-schema.js';

/** Typed help for `toolprep.config.ts`: `export default defineConfig({ ... })`. */
export function defineConfig(config: ToolprepConfig): ToolprepConfig {
  return config;
}

/** Where the last options checked are kept, with what they were checked from. */
const CHECKED_FILE = 'options.json';

/**
 * Merges the file's options under the inline ones and checks the result, naming each bad key.
 * Checking loads Zod, a tenth of a second before anything else runs: options of plain JSON that
 * this build of toolprep checked last time (kept under `cacheDir`) are taken as they were
 * resolved. Options with a schema or a function in them are checked every time.
 */
export async function resolveOptions(
  fromFile: unknown,
  inline: ToolprepConfig = {},
  source = 'toolprep.config.ts',
  cacheDir?: string,
): Promise<ResolvedToolprepConfig> {
  const given = { ...(isRecord(fromFile) ? fromFile : {}), ...inline };
  const kept =
    cacheDir && BUILD_IDENTITY !== 'unknown' && isPlainJson(given)
      ? path.join(cacheDir, CHECKED_FILE)
      : undefined;
  // In their order (not canonical JSON): the order of groups and of a profile's tool patterns is
  // meaningful. Zod checks them: its version is part of what they resolve to.
  const key =
    kept &&
    contentDigest(
      JSON.stringify([BUILD_IDENTITY, packageVersion('zod/package.json', import.meta.url), source, given]),
    );
  if (kept) {
    try {
      const checked = JSON.parse(await readFile(kept, 'utf8')) as {
        key?: unknown;
        options?: ResolvedToolprepConfig;
      };
      if (checked.key === key && checked.options) return checked.options;
    } catch {
      // None kept, or unreadable: checked now.
    }
  }
  const options = (await import('./options-schema.js')).checkedOptions(given, source);
  if (kept) {
    // A write cut short is unreadable JSON, which is no record, never a wrong one; one that cannot
    // be written (a read-only node_modules) only means checking again next time.
    await mkdir(path.dirname(kept), { recursive: true })
      .then(() => writeFile(kept, `${JSON.stringify({ key, options })}\n`))
      .catch(() => undefined);
  }
  return options;
}

/** Objects, arrays, strings, finite numbers, booleans and null only: what JSON keeps as it is. */
function isPlainJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isPlainJson);
  if (!isRecord(value) || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every(isPlainJson);
}
