interface Verdict {
  readonly passed: boolean;
  readonly suite: 'active' | 'pending';
  readonly failures: readonly string[];
  readonly warnings: readonly string[];
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
export function conformance(): Promise<{
  rows: Row[];
  active: Row[];
  regressions: Row[];
  modern: ModernRow[];
}>;
