import { plural } from '../shared/build/plural.js';
import { formatProblem } from '../shared/build/problems.js';
import type { RunOutcome } from './context.js';

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
  const result = outcome.stale
    ? 'the committed tool surface is current'
    : outcome.written.length > 0
      ? `wrote ${outcome.written.join(', ')}`
      : 'the files were up to date';
  const { hidden } = generation.stats;
  const explain =
    hidden.constraints > 0
      ? `; ${plural(hidden.constraints, 'hidden constraint')} in ${plural(hidden.tools, 'tool')}: toolprep check --explain shows them`
      : '';
  return { summary: `[toolprep] ${reason}: ${found}; ${result}${explain}`, warnings, problems: [] };
}
