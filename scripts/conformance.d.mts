interface Verdict {
  readonly passed: boolean;
  readonly suite: 'active' | 'pending';
  readonly failures: readonly string[];
  readonly warnings: readonly string[];
  /** Every check of the scenario was skipped by the suite itself (it passes nothing, fails nothing). */
  readonly skipped?: true;
  /** The checks the suite skipped, with its reasons. */
  readonly skips?: readonly string[];
}
interface Row {
  readonly scenario: string;
  readonly suite: 'active' | 'pending';
  readonly verdict: string;
  readonly toolprep?: Verdict;
  readonly baseline?: Verdict;
}
interface ModernRow {
  readonly scenario: string;
  /** Whether 2026-07-28 conformance requires it (the suite's frozen list). */
  readonly required: boolean;
  readonly toolprep?: Omit<Verdict, 'suite'>;
  readonly 'toolprep-on-sdk-v2'?: Omit<Verdict, 'suite'>;
}
/** A scenario of the tasks extension (io.modelcontextprotocol/tasks), on toolprep's own serving. */
interface TaskRow {
  readonly scenario: string;
  readonly toolprep?: Omit<Verdict, 'suite'>;
  /** Why there is none: no SDK serves the tasks extension. */
  readonly baseline: string;
}
/** `tasksOnly`: the tasks scenarios alone (`rows`, `active`, `regressions` and `modern` come back empty). */
export function conformance(options?: { readonly tasksOnly?: boolean }): Promise<{
  rows: Row[];
  active: Row[];
  regressions: Row[];
  modern: ModernRow[];
  tasks: TaskRow[];
}>;
