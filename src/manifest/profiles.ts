import type { JsonSchema } from '../shared/json-schema/schema.js';

/**
 * The model providers' dialects toolprep prepares documents for, chosen with the config's
 * `profiles`. docs/guide/profiles.md says what each one changes and why.
 */
export const PROFILE_NAMES = [
  'openai-strict',
  'anthropic',
  'anthropic-strict',
  'gemini',
  'gemini-openapi',
] as const;

export type ProfileName = (typeof PROFILE_NAMES)[number];

/**
 * What a call through a profile undoes before the contract's parser runs, in the plan's walk:
 * `nullAbsent` deletes a key whose value is `null` where the contract's field rejects `null` (how a
 * model leaves out a field a strict document made required and nullable); `caseFold` gives an enum
 * string its member's case, where exactly one member matches ignoring case.
 */
export type InverseStep = 'nullAbsent' | 'caseFold';

export const INVERSE_STEPS: { readonly [Profile in ProfileName]: readonly InverseStep[] } = {
  'openai-strict': ['nullAbsent'],
  anthropic: ['nullAbsent'],
  'anthropic-strict': ['nullAbsent', 'caseFold'],
  gemini: ['nullAbsent'],
  'gemini-openapi': ['nullAbsent'],
};

/**
 * What a tool is sent with when a profile cannot (or, by a declaration, should not) present it:
 * `openai` is OpenAI's non-strict function calling (the MCP document with its root union merged,
 * sent with `strict: false`), `anthropic` and `gemini` are those profiles' documents.
 */
export const FALLBACK_PROFILES = {
  'openai-strict': 'openai',
  'anthropic-strict': 'anthropic',
  'gemini-openapi': 'gemini',
} as const;

export type FallbackFrom = keyof typeof FALLBACK_PROFILES;
export type FallbackProfile = (typeof FALLBACK_PROFILES)[FallbackFrom];

export function hasFallback(profile: ProfileName): profile is FallbackFrom {
  return Object.hasOwn(FALLBACK_PROFILES, profile);
}

/** A tool's input as one profile presents it. */
export interface ProfileDocument {
  /** What to send as the provider's tool parameters: no `$schema`, the provider's keywords only. */
  readonly inputSchema: JsonSchema;
  /**
   * `anthropic-strict`: what the tool spends of the per-request budgets of strict tool use
   * (`ANTHROPIC_STRICT_LIMITS`, summed over a request's tools). Absent where the tool falls back.
   */
  readonly strictBudget?: StrictBudget;
  /**
   * The profile whose document `inputSchema` is, in place of this one: the surfaces send the tool
   * as that profile's (`strict: false`), and its calls run that profile's inverse steps.
   */
  readonly fallback?: FallbackProfile;
  /** Why it falls back: who declared it, or the field the profile cannot express and why. */
  readonly reason?: string;
}

export interface StrictBudget {
  readonly optional: number;
  readonly unions: number;
}

/**
 * Anthropic strict tool use's limits per request, summed over the strict tools it sends: beyond
 * them the API answers "Schema is too complex for compilation". The one place these numbers live;
 * change them here when Anthropic does. Sources: platform.claude.com, "Strict tool use" and
 * "Structured outputs" (complexity limits: 20 strict tools, 24 optional parameters, 16 parameters
 * with union types, per request). Below them there is also an undocumented ceiling, "The compiled
 * grammar is too large", that users met on sets within these numbers (elie222/inbox-zero #2662,
 * mozilla/bugbug #6129, genkit-ai/genkit #5230): it has no number to check, so
 * docs/guide/profiles.md says how to keep well under it.
 */
export const ANTHROPIC_STRICT_LIMITS = { tools: 20, optional: 24, unions: 16 } as const;

/**
 * What one request sending these tools with `anthropic-strict` would exceed, one sentence per
 * limit, naming the tools that spend the most; none when the request fits.
 */
export function anthropicStrictOverruns(
  tools: readonly { readonly name: string; readonly strictBudget: StrictBudget }[],
): string[] {
  const overruns: string[] = [];
  if (tools.length > ANTHROPIC_STRICT_LIMITS.tools)
    overruns.push(`${tools.length} strict tools, over the limit of ${ANTHROPIC_STRICT_LIMITS.tools}`);
  for (const [kind, words] of [
    ['optional', 'optional parameters'],
    ['unions', 'parameters with union types'],
  ] as const) {
    const spending = tools
      .filter((tool) => tool.strictBudget[kind] > 0)
      .sort((a, b) => b.strictBudget[kind] - a.strictBudget[kind]);
    const total = spending.reduce((sum, tool) => sum + tool.strictBudget[kind], 0);
    if (total <= ANTHROPIC_STRICT_LIMITS[kind]) continue;
    const most = spending.slice(0, 5).map((tool) => `${tool.name} ${tool.strictBudget[kind]}`);
    const others = spending.length > 5 ? `, ${spending.length - 5} more` : '';
    overruns.push(
      `${total} ${words} (${most.join(', ')}${others}), over the limit of ${ANTHROPIC_STRICT_LIMITS[kind]}`,
    );
  }
  return overruns;
}
