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
export function conformance(): Promise<{ rows: Row[]; active: Row[]; regressions: Row[] }>;
