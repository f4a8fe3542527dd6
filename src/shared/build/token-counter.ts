import nodeModule, { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { O200K_BASE, tokensOf } from './tokens.js';

/** A text's size: its UTF-8 bytes and its tokens. */
interface Size {
  readonly bytes: number;
  readonly tokens: number;
}

/** The counting thread's answer to a batch: a count per text, null where the count threw. */
interface Answer {
  readonly batch: number;
  readonly counts: readonly (number | null)[];
}

/** A text asked for, and what settles its promise with a count (or the count's throw). */
interface Asked {
  readonly text: string;
  readonly settle: (count: () => number) => void;
}

// The counting thread: it loads the tables, then answers each batch of texts with their counts,
// made as `tokensOf` makes them (null where a count throws: that text is then counted here, which
// throws the encoding's own error). It is evaluated as a script, so that it runs from src/ as from dist/. Node's compile
// cache (22.1+) is the process's only where each thread enables it: the thread uses the CLI's.
const COUNTER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
if (workerData.compileCache) require('node:module').enableCompileCache(workerData.compileCache);
const { countTokens } = require(workerData.encoding);
const asText = { disallowedSpecial: new Set() };
const counted = (text) => { try { return countTokens(text, asText); } catch { return null; } };
parentPort.on('message', ({ batch, texts }) => parentPort.postMessage({ batch, counts: texts.map(counted) }));
`;

/**
 * Counts texts as `tokensOf` does, on another thread that loads the encoding's tables (about 0.2 s
 * of compiling and a 200,000-entry map) while this one goes on: texts asked for in one turn of
 * this thread go as one batch, and a stage awaits the counts only where it needs them. A thread
 * that cannot start, load the tables or live on hands its texts back to be counted here, so a
 * count is never other than the encoding's. A thread left idle for `idleMilliseconds` is ended,
 * its tables let go; the next count starts another.
 */
export class TokenCounter {
  #worker: Worker | undefined;
  /** Set when a thread failed: every count from then on is made here. */
  #failed = false;
  #idle: NodeJS.Timeout | undefined;
  #next = 0;
  #queued: Asked[] | undefined;
  readonly #sent = new Map<number, Asked[]>();
  readonly #encoding: string;
  readonly #idleMilliseconds: number;

  /** `encoding`: the module the thread loads `countTokens` from (o200k_base's; a test's other). */
  constructor({
    encoding = createRequire(import.meta.url).resolve(O200K_BASE),
    idleMilliseconds = IDLE_MILLISECONDS,
  }: { readonly encoding?: string; readonly idleMilliseconds?: number } = {}) {
    this.#encoding = encoding;
    this.#idleMilliseconds = idleMilliseconds;
    this.start();
  }

  /** Starts the thread, if none runs: a stage that will count soon lets the tables load meanwhile. */
  start(): void {
    if (this.#worker || this.#failed) return;
    let worker: Worker;
    try {
      const compileCache = (
        nodeModule as { getCompileCacheDir?: () => string | undefined }
      ).getCompileCacheDir?.();
      worker = new Worker(COUNTER_SOURCE, {
        eval: true,
        workerData: { encoding: this.#encoding, compileCache },
      });
    } catch {
      this.#failed = true;
      return;
    }
    this.#worker = worker;
    worker.on('message', (answer: Answer) => this.#answered(answer));
    worker.on('error', () => this.#threadGone(worker));
    worker.on('exit', () => this.#threadGone(worker));
    // Idle, the thread never keeps a process alive (watch, the bundler plugins, test runners):
    // it holds it only while a count is awaited. After the listeners: adding one refs it again.
    worker.unref();
    this.#restIdle();
  }

  /** Whether a thread is counting, or ready to: what the idle test reads. */
  get threadRunning(): boolean {
    return this.#worker !== undefined;
  }

  /** The tokens of `text`, as `tokensOf` counts it. */
  count(text: string): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      const settle = (count: () => number): void => {
        try {
          resolve(count());
        } catch (error) {
          reject(error);
        }
      };
      this.start();
      if (!this.#worker) {
        settle(() => tokensOf(text));
        return;
      }
      if (!this.#queued) {
        this.#queued = [];
        queueMicrotask(() => this.#send());
      }
      this.#queued.push({ text, settle });
    });
  }

  /** `shown` as JSON, in bytes and tokens: `sizeOf`, counted on the thread. */
  async sizeOf(shown: unknown): Promise<Size> {
    const text = JSON.stringify(shown);
    return { bytes: Buffer.byteLength(text), tokens: await this.count(text) };
  }

  /**
   * Counts each of `shown` now; what it returns sizes those values, and no other, without waiting:
   * for a stage that measures synchronously after the counting step.
   */
  async measureAll(shown: readonly unknown[]): Promise<(value: unknown) => Size> {
    const texts = shown.map((value) => JSON.stringify(value));
    const counts = await Promise.all(texts.map((text) => this.count(text)));
    const counted = new Map(texts.map((text, index) => [text, counts[index] as number]));
    return (value) => {
      const text = JSON.stringify(value);
      const tokens = counted.get(text);
      if (tokens === undefined)
        throw new Error(
          `[toolprep] ${text.slice(0, 80)} was measured but not counted: this is a bug in toolprep`,
        );
      return { bytes: Buffer.byteLength(text), tokens };
    };
  }

  #send(): void {
    const batch = this.#queued ?? [];
    this.#queued = undefined;
    if (!this.#worker) {
      countHere(batch);
      return;
    }
    clearTimeout(this.#idle);
    const id = this.#next++;
    this.#sent.set(id, batch);
    this.#worker.ref();
    this.#worker.postMessage({ batch: id, texts: batch.map(({ text }) => text) });
  }

  #answered({ batch: id, counts }: Answer): void {
    const batch = this.#sent.get(id) ?? [];
    this.#sent.delete(id);
    if (this.#sent.size === 0) {
      this.#worker?.unref();
      this.#restIdle();
    }
    batch.forEach(({ text, settle }, index) => {
      const count = counts[index];
      settle(() => (typeof count === 'number' ? count : tokensOf(text)));
    });
  }

  /** Ends the thread once it has had nothing to count for a while. */
  #restIdle(): void {
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => {
      const worker = this.#worker;
      if (!worker || this.#sent.size > 0 || this.#queued) return;
      this.#worker = undefined;
      worker.removeAllListeners();
      void worker.terminate();
    }, this.#idleMilliseconds);
    this.#idle.unref();
  }

  /** The thread is gone: what it was sent, and every text from now on, is counted here. */
  #threadGone(worker: Worker): void {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    this.#failed = true;
    clearTimeout(this.#idle);
    const sent = [...this.#sent.values()];
    this.#sent.clear();
    for (const batch of sent) countHere(batch);
  }
}

/** How long a thread with nothing to count is kept: a watch run's next edit usually comes sooner. */
const IDLE_MILLISECONDS = 30_000;

function countHere(batch: readonly Asked[]): void {
  for (const { text, settle } of batch) settle(() => tokensOf(text));
}

let counter: TokenCounter | undefined;

/**
 * The module's one token counter, its thread started on each call if none runs: a generation calls
 * this when it starts, so the tables load while it discovers and loads the contracts. One thread,
 * as the tables here were one copy, and none once idle.
 */
export function tokenCounter(): TokenCounter {
  counter ??= new TokenCounter();
  counter.start();
  return counter;
}
