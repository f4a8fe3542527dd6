import { createRequire } from 'node:module';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';

type CountTokens = (text: string) => number;

const ENCODING = 'gpt-tokenizer/cjs/encoding/o200k_base';

let countTokens: CountTokens | undefined;

/** A thread that holds the encoding's tables and counts each text it is sent. */
interface TokenCounter {
  readonly port: MessagePort;
  /** [0]: 1 once the thread could not load the tables; [1]: 1 once an answer is waiting on the port. */
  readonly signal: Int32Array;
}

let counter: TokenCounter | undefined;

// The counting thread: it loads the tables, then answers each text with its count (null when the
// count throws: the text is then counted here, which throws the same error) and wakes the thread
// that waits for it. It is evaluated as a script, so that it runs from src/ as from dist/.
const COUNTER_SOURCE = `
const { workerData: { encoding, port, signal } } = require('node:worker_threads');
const answered = () => { Atomics.store(signal, 1, 1); Atomics.notify(signal, 1); };
let count;
try {
  count = require(encoding).countTokens;
} catch {
  Atomics.store(signal, 0, 1);
  answered();
}
const counted = (text) => { try { return count(text); } catch { return null; } };
if (count) port.on('message', (text) => { port.postMessage(counted(text)); answered(); });
`;

/**
 * Starts loading the encoding's tables (about 0.2 s of compiling and building a 200,000-entry
 * map) on another thread, while this one loads the contract modules; the counts are then that
 * thread's, one at a time. Without it, the first count loads them here.
 */
export function prepareTokenCounter(): void {
  if (counter || countTokens) return;
  const { port1, port2 } = new MessageChannel();
  const signal = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(COUNTER_SOURCE, {
    eval: true,
    workerData: { encoding: createRequire(import.meta.url).resolve(ENCODING), port: port2, signal },
    transferList: [port2],
  });
  // The thread lives as long as the process needs it, and never keeps it alive.
  worker.unref();
  port1.unref();
  counter = { port: port1, signal };
}

/**
 * The count from the counting thread: null when it threw, undefined when the thread has no tables
 * or gave no answer in time (a thread that died cannot say so to a thread that waits).
 */
function countedElsewhere({ port, signal }: TokenCounter, text: string): number | null | undefined {
  Atomics.store(signal, 1, 0);
  port.postMessage(text);
  const deadline = Date.now() + ANSWER_WITHIN_MS;
  while (Atomics.load(signal, 1) === 0 && Atomics.load(signal, 0) === 0) {
    const left = deadline - Date.now();
    if (left <= 0) return undefined;
    Atomics.wait(signal, 1, 0, left);
  }
  if (Atomics.load(signal, 0) === 1) return undefined;
  return receiveMessageOnPort(port)?.message as number | null;
}
// Loading the tables takes about 0.2 s; far past that, the thread is taken as gone.
const ANSWER_WITHIN_MS = 10_000;

/**
 * The tokens of `text` as OpenAI's o200k_base encoding counts them (the GPT-4o, GPT-5 and o-series
 * models'). Other providers' tokenizers differ by a few percent; bytes are kept beside them. The
 * encoding's tables load on the first count (about 0.2 s), only when a manifest is written.
 */
export function tokensOf(text: string): number {
  const known = text.length <= SHORT_TEXT ? shortCounts.get(text) : undefined;
  if (known !== undefined) return known;
  const tokens = countedTokens(text);
  if (text.length <= SHORT_TEXT) {
    if (shortCounts.size >= SHORT_COUNTS_KEPT) shortCounts.delete(shortCounts.keys().next().value as string);
    shortCounts.set(text, tokens);
  }
  return tokens;
}

/**
 * Counts of short texts: each run counts every deferred tool's name and description again (its
 * first-turn share), which a watcher's run would otherwise ask of the counting thread each time.
 */
const shortCounts = new Map<string, number>();
const SHORT_TEXT = 1_024;
const SHORT_COUNTS_KEPT = 8_192;

function countedTokens(text: string): number {
  if (counter) {
    const counted = countedElsewhere(counter, text);
    if (typeof counted === 'number') return counted;
    // The thread could not load the tables or is gone (loading them here reports why), or the count threw.
    if (counted === undefined) counter = undefined;
  }
  countTokens ??= (createRequire(import.meta.url)(ENCODING) as { countTokens: CountTokens }).countTokens;
  return countTokens(text);
}

/** `shown` as JSON, in bytes and tokens. */
export function sizeOf(shown: unknown): { readonly bytes: number; readonly tokens: number } {
  const text = JSON.stringify(shown);
  return { bytes: Buffer.byteLength(text), tokens: tokensOf(text) };
}
