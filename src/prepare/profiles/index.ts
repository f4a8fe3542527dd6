import { fieldPath } from '../../adapters/field-path.js';
import type { ProfileDocument, ProfileName } from '../../manifest/profiles.js';
import type { Problem } from '../../shared/build/problems.js';
import type { JsonSchema } from '../../shared/json-schema/schema.js';
import { anthropic, anthropicStrict } from './anthropic.js';
import { gemini, geminiOpenapi } from './gemini.js';
import { openaiStrict } from './openai-strict.js';
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
}

/**
 * The documents of the profiles chosen, each a pure projection of the tool's MCP document, frozen
 * with the tool. Every error is pushed, and every warning passed to `warn`, with the tool, the
 * field and the profile it concerns.
 */
export function prepareProfiles(
  names: readonly ProfileName[],
  subject: ProfileSubject,
  problems: Problem[],
  warn: (problem: Problem) => void,
): { [Name in ProfileName]?: ProfileDocument } | undefined {
  if (names.length === 0) return undefined;
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
  const documents: { [Name in ProfileName]?: ProfileDocument } = {};
  for (const profile of names) {
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
    documents[profile] = PROFILES[profile]({
      tool: subject.tool,
      document: withoutSchemaKey(subject.document),
      report: ({ severity = 'error', path, ...finding }) => {
        const problem = { severity, tool: subject.tool, field: field(path), profile, ...finding };
        if (severity === 'warning') warn(problem);
        else problems.push(problem);
      },
    });
  }
  return documents;
}
