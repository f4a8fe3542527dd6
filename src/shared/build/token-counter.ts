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

// The counting thread: it loads the tables, then answers each batch of texts with their counts
// (null where a count throws: that text is then counted here, which throws the encoding's own
// error). It is evaluated as a script, so that it runs from src/ as from dist/. Node's compile
// cache (22.1+) is the process's only where each thread enables it: the thread uses the CLI's.
const COUNTER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
if (workerData.compileCache) require('node:module').enableCompileCache(workerData.compileCache);
const { countTokens } = require(workerData.encoding);
const counted = (text) => { try { return countTokens(text); } catch { return null; } };
parentPort.on('message', ({ batch, texts }) => parentPort.postMessage({ batch, counts: texts.map(counted) }));
`;

/**
 * Counts texts as `tokensOf` does, on another thread that loads the encoding's tables (about 0.2 s
 * of compiling and a 200,000-entry map) while this one goes on: texts asked for in one turn of
 * this thread go as one batch, and a stage awaits the counts only where it needs them. A thread
 * that cannot start, load the tables or live on hands its texts back to be counted here, so a
 * count is never other than the encoding's.
 */
export class TokenCounter {
  #worker: Worker | undefined;
  #next = 0;
  #queued: Asked[] | undefined;
  readonly #sent = new Map<number, Asked[]>();

  /** `encoding`: the module the thread loads `countTokens` from (o200k_base's; a test's other). */
  constructor(encoding: string = createRequire(import.meta.url).resolve(O200K_BASE)) {
    try {
      const compileCache = (
        nodeModule as { getCompileCacheDir?: () => string | undefined }
      ).getCompileCacheDir?.();
      this.#worker = new Worker(COUNTER_SOURCE, { eval: true, workerData: { encoding, compileCache } });
    } catch {
      return;
    }
    this.#worker.on('message', (answer: Answer) => this.#answered(answer));
    this.#worker.on('error', () => this.#threadGone());
    this.#worker.on('exit', () => this.#threadGone());
    // Idle, the thread never keeps a process alive (watch, the bundler plugins, test runners):
    // it holds it only while a count is awaited. After the listeners: adding one refs it again.
    this.#worker.unref();
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
    const id = this.#next++;
    this.#sent.set(id, batch);
    this.#worker.ref();
    this.#worker.postMessage({ batch: id, texts: batch.map(({ text }) => text) });
  }

  #answered({ batch: id, counts }: Answer): void {
    const batch = this.#sent.get(id) ?? [];
    this.#sent.delete(id);
    if (this.#sent.size === 0) this.#worker?.unref();
    batch.forEach(({ text, settle }, index) => {
      const count = counts[index];
      settle(() => (typeof count === 'number' ? count : tokensOf(text)));
    });
  }

  /** The thread is gone: what it was sent, and every text from now on, is counted here. */
  #threadGone(): void {
    this.#worker = undefined;
    const sent = [...this.#sent.values()];
    this.#sent.clear();
    for (const batch of sent) countHere(batch);
  }
}

function countHere(batch: readonly Asked[]): void {
  for (const { text, settle } of batch) settle(() => tokensOf(text));
}

let counter: TokenCounter | undefined;

/**
 * The process's one token counter, its thread started on the first call: a generation calls this
 * when it starts, so the tables load while it discovers and loads the contracts. One thread for
 * the process, as the tables here were one copy for the process.
 */
export function tokenCounter(): TokenCounter {
  counter ??= new TokenCounter();
  return counter;
}
