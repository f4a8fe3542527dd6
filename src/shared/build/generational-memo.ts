/**
 * Values a long-lived generator keeps between runs, bounded to what the last run used: a run takes
 * what it needs (made anew, or carried over from the run before), and `endRun` forgets everything
 * that run did not touch. An edited tool's older texts are dropped one run after its edit, so the
 * memo holds about one run's worth of entries however long a watch session lasts.
 */
export class GenerationalMemo<Value> {
  private previous = new Map<string, Value>();
  private current = new Map<string, Value>();

  /** The value for `key`: this run's, the last run's, or a new one from `make`. */
  take(key: string, make: () => Value): Value {
    let value = this.current.get(key) ?? this.previous.get(key);
    if (value === undefined) value = make();
    this.current.set(key, value);
    return value;
  }

  /** Ends a run: what it did not take is forgotten. */
  endRun(): void {
    this.previous = this.current;
    this.current = new Map();
  }

  /** Entries held: the last run's, and this one's so far. */
  get size(): number {
    let size = this.previous.size;
    for (const key of this.current.keys()) if (!this.previous.has(key)) size++;
    return size;
  }
}
