import type { Manifest } from '../manifest/manifest.js';
import type { PreparedTool } from '../manifest/prepared-tool.js';
import { PROFILE_NAMES } from '../manifest/profiles.js';
import { plural } from '../shared/build/plural.js';
import { formatProblem } from '../shared/build/problems.js';
import type { RunOutcome } from './context.js';
import type { Explanation, HiddenConstraint } from './explain.js';

/** A run's outcome in words, the same for the CLI, watch mode and every bundler plugin. */
export interface OutcomeReport {
  /** What was generated and what became of it; none when the run did nothing or failed. */
  readonly summary?: string;
  readonly warnings: readonly string[];
  /** Each problem, then what became of the output; none when there is no problem. */
  readonly problems: readonly string[];
  /** In check mode, what is stale and the diff; none when the committed files are current. */
  readonly stale?: string;
}

export interface DescribeOptions {
  /** What started the run: `generate`, `check`, `start`, `src/tools/a.ts changed`. */
  readonly reason: string;
  /** A long-lived host keeps its last good output on problems; a one-shot run writes nothing. */
  readonly watching?: boolean;
}

export function describeOutcome(outcome: RunOutcome, { reason, watching }: DescribeOptions): OutcomeReport {
  const warnings = outcome.warnings.map(formatProblem);
  const count = outcome.problems.length;
  if (count > 0) {
    const counted = plural(count, 'problem');
    const after = watching
      ? `[toolprep] the last good output stays in place (${counted}; nothing was written)`
      : `[toolprep] ${counted}; nothing was written`;
    return { warnings, problems: [...outcome.problems.map(formatProblem), after] };
  }
  const generation = outcome.generation;
  if (!outcome.ran || !generation) return { warnings, problems: [] };
  const { scanned, tools, fromCache } = generation.stats;
  const cached = fromCache > 0 ? ` (${plural(fromCache, 'file')} from cache)` : '';
  const found = `${plural(scanned, 'file')} scanned, ${plural(tools, 'tool')} found${cached} in ${Math.round(outcome.milliseconds)} ms`;
  if (outcome.stale?.stale.length) return { warnings, problems: [], stale: outcome.stale.text };
  const removed = outcome.removed?.length
    ? `; removed ${outcome.removed.join(', ')} (views no longer kept)`
    : '';
  const result = outcome.stale
    ? 'the committed tool surface is current'
    : outcome.written.length > 0
      ? `wrote ${outcome.written.join(', ')}${removed}`
      : `the files were up to date${removed}`;
  const { hidden } = generation.stats;
  const explain =
    hidden.constraints > 0
      ? `; ${plural(hidden.constraints, 'hidden constraint')} in ${plural(hidden.tools, 'tool')}: toolprep check --explain shows them`
      : '';
  const turnOne = generation.manifest ? turnOnePhrase(generation.manifest) : '';
  const profiles = profileChoicePhrases(generation.manifest?.tools ?? [])
    .map((phrase) => `; ${phrase}`)
    .join('');
  return {
    summary: `[toolprep] ${reason}: ${found}; ${result}${turnOne}${profiles}${explain}`,
    warnings,
    problems: [],
  };
}

/**
 * What a client that defers tools, or takes groups, is sent before the first message, beside the
 * whole list: `; turn one: 45059 tokens in all, 9876 deferred, 2100 groups only`. Nothing when
 * no tool is deferred and there are no groups: the turn is then the whole list.
 */
function turnOnePhrase({ tools, totals: { turnOne } }: Manifest): string {
  if (!tools.some((tool) => tool.loading === 'deferred') && !turnOne.groups) return '';
  const groups = turnOne.groups ? `, ${turnOne.groups.tokens} groups only` : '';
  return `; turn one: ${turnOne.everything.tokens} tokens in all, ${turnOne.deferred.tokens} deferred${groups}`;
}

/**
 * The tools that a profile sends as its fallback or leaves out, counted by profile, a phrase
 * each: `2 tools fall back from openai-strict: a, b`, `1 tool left out of gemini: c`. Never silent.
 */
export function profileChoicePhrases(tools: readonly PreparedTool[]): string[] {
  const phrases: string[] = [];
  for (const profile of PROFILE_NAMES) {
    const fallen = tools.filter((tool) => tool.profiles?.[profile]?.fallback).map((tool) => tool.name);
    const excluded = tools
      .filter((tool) => tool.excludedFrom?.[profile] !== undefined)
      .map((tool) => tool.name);
    if (fallen.length > 0)
      phrases.push(
        `${plural(fallen.length, 'tool')} ${fallen.length === 1 ? 'falls' : 'fall'} back from ${profile}: ${fallen.join(', ')}`,
      );
    if (excluded.length > 0)
      phrases.push(`${plural(excluded.length, 'tool')} left out of ${profile}: ${excluded.join(', ')}`);
  }
  return phrases;
}

/** An explanation in words: the command's lines, the same wherever it is shown. */
export interface ExplanationReport {
  /** Each `superset-violated` (and each contract file that could not be loaded). */
  readonly problems: readonly string[];
  readonly findings: readonly string[];
  readonly summary: string;
}

export function describeExplanation(explanation: Explanation): ExplanationReport {
  const violations = explanation.problems.filter((problem) => problem.code === 'superset-violated').length;
  const superset =
    violations > 0
      ? `${violations} ${violations === 1 ? 'document refuses' : 'documents refuse'} values the contracts accept`
      : explanation.proven === 0
        ? 'no value the contracts accept was tried'
        : `every document takes the ${explanation.proven} values the contracts accept`;
  const outOfTime =
    explanation.outOfTime.length === 0
      ? ''
      : `; out of time before every value was tried: ${explanation.outOfTime.join(', ')}`;
  return {
    problems: explanation.problems.map(formatProblem),
    findings: explanation.findings.map(formatFinding),
    summary: `[toolprep] explain: ${plural(explanation.findings.length, 'hidden constraint')} in ${plural(explanation.tools, 'tool')} (${explanation.samples} documented values parsed); ${superset}${outOfTime}; in ${Math.round(explanation.milliseconds)} ms`,
  };
}

/** `[toolprep] src/a.ts:4 tool "x", input.path: the document allows "a", which the parser refuses: …`. */
function formatFinding(finding: HiddenConstraint): string {
  const hint = finding.described
    ? 'its description may say so already'
    : "describe the rule in the field's description, or express it in the schema so that it reaches the document";
  return `[toolprep] ${finding.described ? 'info: ' : ''}${finding.file}:${finding.line} tool "${finding.tool}", ${finding.field}: the document allows ${JSON.stringify(finding.counterexample)}, which the parser refuses: ${finding.message} (${hint})`;
}
