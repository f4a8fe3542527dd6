import { z } from 'zod';

/**
 * Every option of the generator, defined once: the config file and inline options (a plugin's) are
 * merged and then parsed here, so each has one default and one check. Documented in
 * docs/reference/configuration.md.
 */
export const toolprepOptionsSchema = z.strictObject({
  /** Globs of the files to search for tools, relative to the root. */
  include: z.array(z.string().min(1)).min(1).default(['src/**/*.ts', 'src/**/*.tsx', 'src/**/*.mts']),
  /** Globs to leave out. The generated module is always left out. */
  exclude: z
    .array(z.string().min(1))
    .default(['**/*.d.ts', '**/*.test.*', '**/*.spec.*', '**/node_modules/**']),
  /** Where the manifest is written, relative to the root. */
  manifest: z.string().min(1).default('toolprep.manifest.json'),
  /** Where the generated module is written, relative to the root. */
  module: z.string().min(1).default('src/toolprep.gen.ts'),
  /** How the generated module writes relative imports: `.js` (NodeNext), `.ts`, or no extension. */
  importExtension: z.enum(['.js', '.ts', '']).default('.js'),
  /** Flatten discriminated unions in the presentation documents. */
  flatten: z.boolean().default(true),
  /** `strict`: ^[a-zA-Z0-9_-]{1,64}$ (every provider); `mcp`: 1–128 characters, dots allowed. */
  names: z.enum(['strict', 'mcp']).default('strict'),
  /** `error`, or `degrade` a node JSON Schema cannot show to `{}` with a warning. */
  unrepresentable: z.enum(['error', 'degrade']).default('error'),
  /** Extension keys every tool takes: a Zod object, advertised unless `advertise` is false. */
  extend: z
    .strictObject({
      schema: z.custom<import('zod/v4/core').$ZodType>(
        (value) => typeof value === 'object' && value !== null && '_zod' in value,
        {
          message: 'must be a Zod object',
        },
      ),
      advertise: z.boolean().default(true),
    })
    .optional(),
});

export type ToolprepConfig = z.input<typeof toolprepOptionsSchema>;
export type ResolvedToolprepConfig = z.output<typeof toolprepOptionsSchema>;

/** Typed help for `toolprep.config.ts`: `export default defineConfig({ ... })`. */
export function defineConfig(config: ToolprepConfig): ToolprepConfig {
  return config;
}

/** Merges the file's options under the inline ones and checks the result, naming each bad key. */
export function resolveOptions(
  fromFile: unknown,
  inline: ToolprepConfig = {},
  source = 'toolprep.config.ts',
): ResolvedToolprepConfig {
  const merged = { ...(isRecord(fromFile) ? fromFile : {}), ...inline };
  const result = toolprepOptionsSchema.safeParse(merged);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const key = issue.path.join('.') || '(root)';
    return issue.code === 'unrecognized_keys'
      ? `unknown option ${issue.keys.map((name) => `"${name}"`).join(', ')} (options: ${Object.keys(toolprepOptionsSchema.shape).join(', ')})`
      : `option "${key}": ${issue.message}`;
  });
  throw new Error(`[toolprep] ${source}: ${lines.join('\n[toolprep] ')}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
