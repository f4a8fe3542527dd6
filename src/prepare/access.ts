import type { ResolvedToolprepConfig } from '../config/options.js';
import { SCOPE_TOKEN, type ToolAccess } from '../manifest/prepared-tool.js';
import type { Problem } from '../shared/build/problems.js';
import { namePattern } from './profiles/choices.js';

/** Where the config is, for a problem in it. */
const CONFIG = 'toolprep.config.ts';

/** A config rule naming a group instead of tools: `group:billing`. Tool names hold no `:`. */
const GROUP_PREFIX = 'group:';

/**
 * The access a contract's `scopes` gives (sorted, each once), or none when it names none. A value
 * that is not a list of OAuth scope tokens is an `invalid-scopes` problem naming the entry.
 */
export function contractAccessOf(tool: string, scopes: unknown, problems: Problem[]): ToolAccess | undefined {
  if (scopes === undefined) return undefined;
  const report = (field: string, message: string) =>
    problems.push({
      severity: 'error',
      code: 'invalid-scopes',
      tool,
      field,
      message,
      hint: "scopes are OAuth scope tokens (RFC 6749 §3.3), all required: scopes: ['notes:read']",
    });
  if (!Array.isArray(scopes)) {
    report('scopes', `must be a list of OAuth scopes, not ${JSON.stringify(scopes)}`);
    return undefined;
  }
  const bad = scopes.flatMap((scope: unknown, index) =>
    typeof scope === 'string' && SCOPE_TOKEN.test(scope) ? [] : [index],
  );
  for (const index of bad)
    report(
      `scopes[${index}]`,
      `${JSON.stringify(scopes[index])} is not an OAuth scope token (printable ASCII, no space, " or \\)`,
    );
  return bad.length > 0 ? undefined : accessWith(scopes as string[]);
}

function accessWith(scopes: readonly string[]): ToolAccess | undefined {
  return scopes.length === 0 ? undefined : { scopes: [...new Set(scopes)].sort() };
}

/** A tool as the access rules read it: its name, groups, the contract's access and where it is. */
interface AccessTarget {
  readonly name: string;
  readonly groups: readonly string[];
  readonly access?: ToolAccess;
  readonly file?: string;
  readonly line?: number;
}

/**
 * Each tool's access once the config's `access` rules apply: every `scopes` rule that names the
 * tool (by name, pattern or `group:<name>`) adds its scopes to the contract's, so a rule only ever
 * narrows who may call; `public` opens a tool to callers without a token, and a tool both public
 * and scoped is an `access-conflict` naming both. A `scopes` rule that names no tool is an error
 * (a misspelt rule would leave the tools it meant open); a `public` one only a warning.
 */
export function applyAccessRules(
  tools: readonly AccessTarget[],
  rules: ResolvedToolprepConfig['access'],
  problems: Problem[],
  warnings: Problem[],
): (ToolAccess | undefined)[] {
  const namesTool = (selector: string, field: string, severity: Problem['severity']) => {
    const test = selectorTest(selector);
    const named = tools.map(test);
    if (!named.includes(true))
      (severity === 'error' ? problems : warnings).push({
        severity,
        code: 'name-matches-nothing',
        file: CONFIG,
        field,
        message: `"${selector}" names no tool`,
        ...(severity === 'error'
          ? { hint: 'a scopes rule that names nothing protects nothing: correct it, or remove it' }
          : {}),
      });
    return named;
  };
  const publicBy: (string | undefined)[] = tools.map(() => undefined);
  for (const selector of rules.public)
    namesTool(selector, 'access.public', 'warning').forEach((named, index) => {
      if (named) publicBy[index] ??= selector;
    });
  const scopes = tools.map((tool) => [...(tool.access?.scopes ?? [])]);
  const scopedBy: (string | undefined)[] = tools.map((tool) =>
    tool.access?.scopes ? "the contract's `scopes`" : undefined,
  );
  for (const [selector, added] of Object.entries(rules.scopes))
    namesTool(selector, `access.scopes['${selector}']`, 'error').forEach((named, index) => {
      if (!named) return;
      (scopes[index] as string[]).push(...added);
      scopedBy[index] ??= `the config's access.scopes['${selector}']`;
    });
  return tools.map((tool, index) => {
    const publicSelector = publicBy[index];
    const scopedAt = scopedBy[index];
    if (publicSelector !== undefined && scopedAt !== undefined) {
      problems.push({
        severity: 'error',
        code: 'access-conflict',
        ...(tool.file === undefined ? {} : { file: tool.file, line: tool.line }),
        tool: tool.name,
        field: 'scopes',
        message: `is public by the config's access.public ("${publicSelector}") and needs scopes by ${scopedAt}`,
        hint: 'a public tool is called without a token, so no scope can be checked: drop one of the two',
      });
      return undefined;
    }
    if (publicSelector !== undefined) return { public: true };
    return accessWith(scopes[index] as string[]);
  });
}

/** `group:<name>` names the tools in that group; anything else is a tool name or pattern. */
function selectorTest(selector: string): (tool: AccessTarget) => boolean {
  if (selector.startsWith(GROUP_PREFIX)) {
    const group = selector.slice(GROUP_PREFIX.length);
    return (tool) => tool.groups.includes(group);
  }
  const matches = namePattern(selector);
  return (tool) => matches(tool.name);
}
