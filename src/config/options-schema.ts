import path from 'node:path';
import { z } from 'zod';
import { libraryOf } from '../adapters/libraries.js';
import type { ContractSchema } from '../contract/schema-types.js';
import { SCOPE_TOKEN } from '../manifest/prepared-tool.js';
import { PROFILE_NAMES } from '../manifest/profiles.js';
import { GROUP_NAME } from '../manifest/tool-set.js';
import { type Problem, ToolprepError } from '../shared/build/problems.js';

/**
 * The options and their checks, as Zod schemas: loaded by a run that prepares tools, and by one
 * whose options are not those of its last run (options.ts), never by a run where nothing changed.
 */

/**
 * An object schema itself (not wrapped) of a library toolprep reads: what extension keys must be
 * declared with, since the runtime splits them from the arguments by its keys.
 */
function isObjectSchema(value: unknown): boolean {
  return libraryOf(value)?.view.isObject(value) ?? false;
}

function describeValue(value: unknown): string {
  const view = libraryOf(value)?.view;
  if (view) return `a ${view.typeName(value)} schema (${view.library})`;
  return value === null ? 'null' : typeof value;
}

/**
 * The tool searches `toolprep check` ranks each contract's `intents` under: toolprep's own index,
 * and those of the AI SDK 7, Codex and Claude Code, each reproduced from its source
 * (docs/guide/large-tool-sets.md).
 */
export const FINDABILITY_RANKERS = ['toolprep', 'ai-sdk', 'codex', 'claude-code'] as const;

/** A tool's name, or a pattern of names (`*` any characters, `?` one), to what the profile does with it. */
const toolChoices = <Choice extends z.ZodType>(choice: Choice) =>
  z.record(z.string().min(1), choice).default({} as Record<string, z.output<Choice>>);

/**
 * What a profile with a fallback does with its tools (docs/guide/profiles.md): `tools` leaves a
 * tool out (`'exclude'`) or sends it as the fallback (`'fallback'`); `fallback: 'auto'` sends every
 * tool the profile cannot express as the fallback, with a warning, where `'declared'` (the
 * default) makes that an error unless the contract or `tools` declares it.
 */
const fallbackProfileOptions = z.strictObject({
  fallback: z.enum(['declared', 'auto']).default('declared'),
  tools: toolChoices(z.enum(['exclude', 'fallback'])),
});

/**
 * Anthropic strict tool use's per-request budget: `budget: 'check'` (the default) warns when a
 * request (all tools, or each of `requests`) would exceed `ANTHROPIC_STRICT_LIMITS`; `'plan'`
 * keeps strict the tools that fit, in `order` (names or patterns, then the most constrained
 * first), and sends the rest as `anthropic`.
 */
const anthropicStrictOptions = fallbackProfileOptions.extend({
  budget: z.enum(['check', 'plan']).default('check'),
  order: z.array(z.string().min(1)).default([]),
  /** The tool sets one request carries, by name (names or patterns). Default: one request with every tool. */
  requests: z.record(z.string().min(1), z.array(z.string().min(1)).min(1)).optional(),
});

/** What a profile without a fallback does with its tools: `tools` may leave one out. */
const plainProfileOptions = z.strictObject({ tools: toolChoices(z.literal('exclude')) });

/**
 * Every option of the generator, defined once: the config file and inline options (a plugin's) are
 * merged and then parsed here, so each has one default and one check. Documented in
 * docs/reference/configuration.md.
 */
const optionsObject = z.strictObject({
  /** Globs of the files to search for tools, relative to the root. */
  include: z.array(z.string().min(1)).min(1).default(['src/**/*.ts', 'src/**/*.tsx', 'src/**/*.mts']),
  /** Globs to leave out. The generated module is always left out. */
  exclude: z
    .array(z.string().min(1))
    .default(['**/*.d.ts', '**/*.test.*', '**/*.spec.*', '**/node_modules/**']),
  /**
   * Accept a project with no tools. Otherwise finding none is an error, so that a misconfigured
   * `include` never replaces a manifest with an empty one.
   */
  allowEmpty: z.boolean().default(false),
  /**
   * Tokens a model may be shown (o200k_base, as the manifest counts them): `tool` for each tool's
   * `tools/list` entry, `total` for all of them, `turnOne` for what a client that defers tools, or
   * takes groups, is sent before the first message (a number for both, or `{ deferred, groups }`).
   * An overrun is an error naming the tools.
   */
  budget: z
    .strictObject({
      tool: z.number().int().positive().optional(),
      total: z.number().int().positive().optional(),
      turnOne: z
        .union([
          z.number().int().positive(),
          z.strictObject({
            deferred: z.number().int().positive().optional(),
            groups: z.number().int().positive().optional(),
          }),
        ])
        .optional(),
    })
    .optional(),
  /**
   * Groups of tools (docs/guide/large-tool-sets.md), by name (words of `a-z0-9` joined by single hyphens, at most 64 characters): each group's
   * description (else its folder's `index.ts` doc comment), and more tools to put in it, by name or
   * pattern, beside those whose folder (`…/tools/<group>/…`) or contract `group` names it.
   */
  groups: z
    .record(
      z
        .string()
        .regex(
          GROUP_NAME,
          'a group name is words of a-z and 0-9 joined by single hyphens, at most 64 characters',
        ),
      z.strictObject({
        description: z.string().trim().min(1).optional(),
        tools: z.array(z.string().min(1)).default([]),
      }),
    )
    .default({}),
  /**
   * Which tools a client loads on the first turn (eager) and which it finds by search (deferred):
   * while every `tools/list` entry together is at most `deferAbove` tokens, every tool is eager;
   * past it, every tool is deferred but those the contract or `eager` marks eager. `eager` and
   * `deferred` name tools or patterns, and win over the contracts' `loading`.
   */
  loading: z
    .strictObject({
      deferAbove: z.number().int().nonnegative().default(10_000),
      eager: z.array(z.string().min(1)).default([]),
      deferred: z.array(z.string().min(1)).default([]),
    })
    .prefault({}),
  /**
   * Who may see and call which tools where callers authenticate (docs/reference/configuration.md), by tool
   * name, pattern or `group:<name>`: `public` tools are open to callers without a token too;
   * `scopes` adds OAuth scopes a caller's token must carry, beside each contract's `scopes`.
   */
  access: z
    .strictObject({
      public: z.array(z.string().min(1)).default([]),
      scopes: z
        .record(
          z.string().min(1),
          z
            .array(
              z
                .string()
                .regex(SCOPE_TOKEN, 'an OAuth scope token is printable ASCII without a space, " or \\'),
            )
            .min(1),
        )
        .default({}),
    })
    .prefault({}),
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
  /**
   * The model providers' dialects to prepare each tool's input for, beside the MCP and agent
   * documents (docs/guide/profiles.md); each also adds the inverse steps its calls need to the plan.
   */
  profiles: z
    .array(z.enum(PROFILE_NAMES))
    .refine((names) => new Set(names).size === names.length, { message: 'names a profile twice' })
    .default([]),
  /** Per profile, which tools it leaves out or sends as its fallback, and (anthropic-strict) its budget. */
  profileOptions: z
    .strictObject({
      'openai-strict': fallbackProfileOptions.optional(),
      anthropic: plainProfileOptions.optional(),
      'anthropic-strict': anthropicStrictOptions.optional(),
      gemini: plainProfileOptions.optional(),
      'gemini-openapi': fallbackProfileOptions.optional(),
    })
    .default({}),
  /**
   * The repairs beyond the seeds' rule, each on by default (docs/guide/coercion.md): `false` turns
   * one off for every tool. A profile's calls still run the inverse steps it needs.
   */
  repairs: z
    .strictObject({
      /** `"true"`, `"42"` where only booleans or numbers are taken become `true`, `42`. */
      scalarText: z.boolean().default(true),
      /** `null` for a key that may be left out and takes no `null` is taken as left out. */
      nullAbsent: z.boolean().default(true),
      /** One value where only a list is taken becomes a one-item list, when the list takes it. */
      loneValue: z.boolean().default(true),
      /** An enum string in another case becomes the one member it matches ignoring case. */
      caseFold: z.boolean().default(true),
    })
    .prefault({}),
  /**
   * The views (MCP Apps) contracts declare (docs/guide/views.md): `maxBytes`, the most one built
   * view's HTML may weigh (1 MB: ext-apps' `App` alone bundles to about 590 kB); `keepVersions`, how many versions of each view stay readable, the
   * current one included (older ones are read back from the committed manifest and files).
   */
  views: z
    .strictObject({
      maxBytes: z.number().int().positive().default(1_000_000),
      keepVersions: z.number().int().positive().default(3),
    })
    .prefault({}),
  /** Extension keys every tool takes: an object schema, advertised unless `advertise` is false. */
  search: z.strictObject({ tool: z.boolean().default(false) }).optional(),
  findability: z
    .strictObject({
      rankers: z
        .array(z.enum(FINDABILITY_RANKERS))
        .refine((names) => new Set(names).size === names.length, { message: 'names a ranker twice' })
        .default(['toolprep', 'ai-sdk', 'codex', 'claude-code']),
      top: z.number().int().positive().optional(),
      similar: z.number().gt(0).lte(1).default(0.8),
    })
    .prefault({}),
  extend: z
    .strictObject({
      schema: z.custom<ContractSchema>(isObjectSchema, {
        error: (issue) =>
          `must be an object schema, such as z.object({ tenant: z.string() }), not ${describeValue(issue.input)}`,
      }),
      advertise: z.boolean().default(true),
    })
    .optional(),
});

/** The options with the checks that span several of them. */
const toolprepOptionsSchema = optionsObject
  .refine((options) => path.normalize(options.manifest) !== path.normalize(options.module), {
    path: ['module'],
    message: 'must not be the same file as `manifest`',
  })
  .superRefine(profileOptionsChosen);

/** Options for a profile that `profiles` does not choose would do nothing: say so. */
function profileOptionsChosen(options: z.output<typeof optionsObject>, context: z.RefinementCtx): void {
  for (const profile of Object.keys(options.profileOptions))
    if (!(options.profiles as readonly string[]).includes(profile))
      context.addIssue({
        code: 'custom',
        path: ['profileOptions', profile],
        message: `is for a profile that profiles does not choose (${options.profiles.join(', ') || 'none'})`,
      });
}

export type ToolprepConfig = z.input<typeof toolprepOptionsSchema>;
export type ResolvedToolprepConfig = z.output<typeof toolprepOptionsSchema>;

/** The options that shape each prepared tool: the same definitions, defaults and checks. */
export const prepareOptionsSchema = optionsObject.pick({
  flatten: true,
  names: true,
  unrepresentable: true,
  profiles: true,
  profileOptions: true,
  repairs: true,
  extend: true,
});
export type PrepareSettings = z.output<typeof prepareOptionsSchema>;

/** The options that shape the set a client meets: its groups, what loads on the first turn, who may call what. */
export const surfaceOptionsSchema = optionsObject.pick({ groups: true, loading: true, access: true });

/** The options of a resolved config that shape each prepared tool, every one of them. */
export function prepareSettingsOf(config: ResolvedToolprepConfig): PrepareSettings {
  return Object.fromEntries(
    Object.keys(prepareOptionsSchema.shape).map((key) => [key, config[key as keyof PrepareSettings]]),
  ) as PrepareSettings;
}

/** The options of a project, checked: every bad key is a problem in `source`. */
export function checkedOptions(given: unknown, source: string): ResolvedToolprepConfig {
  return parseOptions(toolprepOptionsSchema, given, source);
}

/** Parses options with one of the schemas above; every bad key becomes a problem in `source`. */
export function parseOptions<Schema extends z.ZodType>(
  schema: Schema,
  options: unknown,
  source: string,
): z.output<Schema> {
  const result = schema.safeParse(options);
  if (result.success) return result.data;
  const known = Object.keys(optionsObject.shape).join(', ');
  const problems = result.error.issues.map(
    (issue): Problem =>
      issue.code === 'unrecognized_keys'
        ? {
            severity: 'error',
            code: 'config-unknown-option',
            file: source,
            message: `unknown option ${issue.keys.map((name) => `"${name}"`).join(', ')}`,
            hint: `options: ${known}`,
          }
        : {
            severity: 'error',
            code: 'config-invalid-option',
            file: source,
            message: `option "${issue.path.join('.') || '(root)'}": ${issue.message}`,
          },
  );
  throw new ToolprepError(problems);
}
