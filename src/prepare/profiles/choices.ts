import type { PrepareSettings } from '../../config/options.js';
import { hasFallback, PROFILE_NAMES, type ProfileName } from '../../manifest/profiles.js';
import type { Problem } from '../../shared/build/problems.js';
import { isRecord } from '../../shared/run/is-record.js';

type ProfileChoice = 'exclude' | 'fallback';

/** A choice for one tool under one profile, and the line that declares it, as a reader finds it. */
interface DeclaredChoice {
  readonly choice: ProfileChoice;
  /** `the contract's profiles['openai-strict']`, `the config's profileOptions['gemini'].tools['notes_*']`. */
  readonly declaredBy: string;
}

export type DeclaredChoices = { readonly [Name in ProfileName]?: DeclaredChoice };

/**
 * A tool name pattern as a test: `*` any characters, `?` one, anything else itself. Tool names
 * have no `/`, so a file glob's other rules have nothing to act on.
 */
export function namePattern(pattern: string): (name: string) => boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  const expression = new RegExp(`^${source}$`);
  return (name) => expression.test(name);
}

/**
 * The first entry of `patterns` (a name or a pattern, to a value) that names `tool`: the tool's
 * own name before any pattern, then the patterns in the order written.
 */
export function matchingEntry<Value>(
  patterns: Readonly<Record<string, Value>>,
  tool: string,
): [string, Value] | undefined {
  const entries = Object.entries(patterns);
  return (
    entries.find(([pattern]) => pattern === tool) ?? entries.find(([pattern]) => namePattern(pattern)(tool))
  );
}

/**
 * What the contract's `profiles` and the config's `profileOptions` say of one tool, by profile;
 * the config wins where both do (the project decides what it sends). A contract's `profiles` that
 * is not such a choice is a `profile-choice` problem naming the tool and the field.
 */
export function declaredChoicesOf(
  tool: string,
  contractChoices: unknown,
  settings: Pick<PrepareSettings, 'profiles' | 'profileOptions'>,
  problems: Problem[],
): DeclaredChoices {
  const declared: { [Name in ProfileName]?: DeclaredChoice } = {};
  const report = (field: string, message: string, hint: string) =>
    problems.push({ severity: 'error', code: 'profile-choice', tool, field, message, hint });
  if (contractChoices !== undefined && !isRecord(contractChoices))
    report('profiles', 'must be an object of profile names', "profiles: { 'openai-strict': 'fallback' }");
  for (const [profile, choice] of isRecord(contractChoices) ? Object.entries(contractChoices) : []) {
    const field = `profiles['${profile}']`;
    if (!(PROFILE_NAMES as readonly string[]).includes(profile)) {
      report(field, 'is not a profile', `the profiles are ${PROFILE_NAMES.join(', ')}`);
      continue;
    }
    const name = profile as ProfileName;
    const allowed = hasFallback(name) ? ['exclude', 'fallback'] : ['exclude'];
    if (!allowed.includes(choice as string)) {
      report(
        field,
        `must be ${allowed.map((each) => `'${each}'`).join(' or ')}, not ${JSON.stringify(choice)}`,
        hasFallback(name) ? `'fallback' sends it as the profile's fallback` : `${name} has no fallback`,
      );
      continue;
    }
    declared[name] = { choice: choice as ProfileChoice, declaredBy: `the contract's ${field}` };
  }
  for (const profile of settings.profiles) {
    const tools = settings.profileOptions[profile]?.tools;
    const entry = tools && matchingEntry<ProfileChoice>(tools, tool);
    if (entry)
      declared[profile] = {
        choice: entry[1],
        declaredBy: `the config's profileOptions['${profile}'].tools['${entry[0]}']`,
      };
  }
  return declared;
}
