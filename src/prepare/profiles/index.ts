import { fieldPath } from '../../adapters/field-path.js';
import {
  FALLBACK_PROFILES,
  type FallbackFrom,
  type FallbackProfile,
  hasFallback,
  type ProfileDocument,
  type ProfileName,
} from '../../manifest/profiles.js';
import type { Problem, ProblemCode } from '../../shared/build/problems.js';
import type { JsonSchema } from '../../shared/json-schema/schema.js';
import { anthropic, anthropicStrict } from './anthropic.js';
import type { DeclaredChoices } from './choices.js';
import { gemini, geminiOpenapi } from './gemini.js';
import { openaiNonStrict, openaiStrict } from './openai-strict.js';
import type { Profile } from './profile.js';
import type { DocumentPath } from './tree.js';

const PROFILES: { readonly [Name in ProfileName]: Profile } = {
  'openai-strict': openaiStrict,
  anthropic,
  'anthropic-strict': anthropicStrict,
  gemini,
  'gemini-openapi': geminiOpenapi,
};

/** Each provider's rule for a function's name, and how it says it. */
const OPENAI_AND_ANTHROPIC_NAME = { pattern: /^[a-zA-Z0-9_-]{1,64}$/, rule: '^[a-zA-Z0-9_-]{1,64}$' };
const GEMINI_NAME = {
  pattern: /^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$/,
  rule: 'a letter or an underscore, then letters, digits, _ . : - (at most 128)',
};
const NAME_RULES: { readonly [Name in ProfileName]: { readonly pattern: RegExp; readonly rule: string } } = {
  'openai-strict': OPENAI_AND_ANTHROPIC_NAME,
  anthropic: OPENAI_AND_ANTHROPIC_NAME,
  'anthropic-strict': OPENAI_AND_ANTHROPIC_NAME,
  gemini: GEMINI_NAME,
  'gemini-openapi': GEMINI_NAME,
};

/** No provider's tool parameters take `$schema` (Gemini's `parameters` refuses it). */
function withoutSchemaKey({ $schema: _schema, ...rest }: JsonSchema): JsonSchema {
  return rest;
}

export interface ProfileSubject {
  readonly tool: string;
  /** The MCP document (2020-12), merged and flattened. */
  readonly document: JsonSchema;
  /** The keys at the top that are params, and extension keys, for naming a field's root. */
  readonly paramsKeys: readonly string[];
  readonly extensionKeys: readonly string[];
  /** What the contract and the config declare of this tool, by profile. */
  readonly declared: DeclaredChoices;
  /** The profiles that send a tool they cannot express as their fallback, with a warning. */
  readonly autoFallback: readonly ProfileName[];
}

/** What a profile cannot express, which its fallback may: not a name every provider refuses. */
const FALLBACK_CODES: ReadonlySet<ProblemCode> = new Set(['profile-unsupported', 'profile-limit']);

/** The document the tools of `openai-strict`, `anthropic-strict` and `gemini-openapi` fall back to. */
export const FALLBACK_PROJECTIONS: { readonly [Name in FallbackProfile]: Profile } = {
  openai: openaiNonStrict,
  anthropic,
  gemini,
};

export interface PreparedProfiles {
  readonly documents?: { [Name in ProfileName]?: ProfileDocument };
  readonly excludedFrom?: { [Name in ProfileName]?: string };
}

/**
 * The documents of the profiles chosen, each a pure projection of the tool's MCP document, frozen
 * with the tool; where the profile cannot express the tool, or a declaration says so, its
 * fallback's document, with the reason. Every error is pushed, and every warning passed to `warn`,
 * with the tool, the field and the profile it concerns.
 */
export function prepareProfiles(
  names: readonly ProfileName[],
  subject: ProfileSubject,
  problems: Problem[],
  warn: (problem: Problem) => void,
): PreparedProfiles {
  if (names.length === 0) return {};
  const field = (path: DocumentPath): string => {
    const key = path[0] === 'properties' ? String(path[1]) : undefined;
    const root =
      key !== undefined && subject.paramsKeys.includes(key)
        ? 'params'
        : key !== undefined && subject.extensionKeys.includes(key)
          ? 'extend'
          : 'input';
    return path.length === 0 ? root : `${root}.${fieldPath(path)}`;
  };
  /** One projection, its findings kept apart, so that a fallback can stand in for its errors. */
  const project = (profile: ProfileName, projection: Profile) => {
    const errors: Problem[] = [];
    const warnings: Problem[] = [];
    const document = projection({
      tool: subject.tool,
      document: withoutSchemaKey(subject.document),
      report: ({ severity = 'error', path, ...finding }) => {
        const problem = { severity, tool: subject.tool, field: field(path), profile, ...finding };
        (severity === 'warning' ? warnings : errors).push(problem);
      },
    });
    return { document, errors, warnings };
  };
  const documents: { [Name in ProfileName]?: ProfileDocument } = {};
  const excludedFrom: { [Name in ProfileName]?: string } = {};
  for (const profile of names) {
    const declared = subject.declared[profile];
    if (declared?.choice === 'exclude') {
      excludedFrom[profile] = `excluded by ${declared.declaredBy}`;
      continue;
    }
    const rule = NAME_RULES[profile];
    if (!rule.pattern.test(subject.tool))
      problems.push({
        severity: 'error',
        code: 'profile-name',
        tool: subject.tool,
        field: 'name',
        profile,
        message: `the provider takes a tool name matching ${rule.rule}`,
        hint: 'rename the tool, or leave this profile out',
      });
    const own = project(profile, PROFILES[profile]);
    const fallsBack =
      hasFallback(profile) &&
      own.errors.every((error) => FALLBACK_CODES.has(error.code)) &&
      (declared?.choice === 'fallback' || (own.errors.length > 0 && subject.autoFallback.includes(profile)));
    if (!fallsBack) {
      problems.push(...own.errors.map((error) => withFallbackHint(error, profile, subject.tool)));
      for (const warning of own.warnings) warn(warning);
      documents[profile] = own.document;
      continue;
    }
    const fallback = FALLBACK_PROFILES[profile as FallbackFrom];
    const standIn = project(profile, FALLBACK_PROJECTIONS[fallback]);
    problems.push(...standIn.errors);
    for (const warning of standIn.warnings) warn(warning);
    const why = own.errors.map((error) => `${error.field}: ${error.message}`).join('; ');
    if (declared === undefined && own.errors[0])
      warn({
        ...own.errors[0],
        severity: 'warning',
        code: 'profile-fallback',
        message: `sent as ${fallback} (not strict), since ${why}`,
        hint: `fallback: 'auto' chose it; declare it to keep it so: ${declarationLine(profile, subject.tool)}`,
      });
    const reason = declared ? `declared by ${declared.declaredBy}${why ? `; ${why}` : ''}` : why;
    documents[profile] = { inputSchema: standIn.document.inputSchema, fallback, reason };
  }
  return {
    ...(Object.keys(documents).length > 0 ? { documents } : {}),
    ...(Object.keys(excludedFrom).length > 0 ? { excludedFrom } : {}),
  };
}

/** The two lines either of which sends the tool as the profile's fallback. */
function declarationLine(profile: FallbackFrom, tool: string): string {
  return `profiles: { '${profile}': 'fallback' } in its defineTool(), or profileOptions: { '${profile}': { tools: { '${tool}': 'fallback' } } } in the config`;
}

/** A profile's error with, where a fallback would take the tool, the exact line that declares it. */
function withFallbackHint(error: Problem, profile: ProfileName, tool: string): Problem {
  if (!hasFallback(profile) || !FALLBACK_CODES.has(error.code)) return error;
  const line = `or send this tool as ${FALLBACK_PROFILES[profile]} (not strict): ${declarationLine(profile, tool)}`;
  return { ...error, hint: error.hint ? `${error.hint}; ${line}` : line };
}
