import type { JsonSchema } from './prepared-tool.js';

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
   * (24 optional parameters, 16 parameters with union types, summed over a request's tools).
   */
  readonly strictBudget?: { readonly optional: number; readonly unions: number };
}
