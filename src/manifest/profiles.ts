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

/** A tool's input as one profile presents it. */
export interface ProfileDocument {
  /** What to send as the provider's tool parameters: no `$schema`, the provider's keywords only. */
  readonly inputSchema: JsonSchema;
  /**
   * `anthropic-strict`: what the tool spends of the per-request budgets of strict tool use
   * (`ANTHROPIC_STRICT_LIMITS`, summed over a request's tools).
   */
  readonly strictBudget?: StrictBudget;
}

export interface StrictBudget {
  readonly optional: number;
  readonly unions: number;
}

/**
 * Anthropic strict tool use's limits per request, summed over the strict tools it sends: beyond
 * them the API answers "Schema is too complex for compilation".
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
