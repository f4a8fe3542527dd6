import { createRequire } from 'node:module';

type CountTokens = (text: string, options?: { readonly disallowedSpecial?: ReadonlySet<string> }) => number;

/** The encoding's CommonJS module: loaded here, or on the counting thread (`tokenCounter`). */
export const O200K_BASE = 'gpt-tokenizer/cjs/encoding/o200k_base';

let countTokens: CountTokens | undefined;

/**
 * The options every count is made with: a special token's text (`<|endoftext|>` in a description)
 * is counted as the ordinary text a provider's API encodes it as, not refused. The counting thread
 * counts with the same.
 */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * The tokens of `text` as OpenAI's o200k_base encoding counts them (the GPT-4o, GPT-5 and o-series
 * models'). Other providers' tokenizers differ by a few percent; bytes are kept beside them. The
 * encoding's tables load here on the first count (about 0.2 s); a generation counts on another
 * thread instead (`tokenCounter`).
 */
export function tokensOf(text: string): number {
  countTokens ??= (createRequire(import.meta.url)(O200K_BASE) as { countTokens: CountTokens }).countTokens;
  return countTokens(text, AS_TEXT);
}

/** `shown` as JSON, in bytes and tokens. */
export function sizeOf(shown: unknown): { readonly bytes: number; readonly tokens: number } {
  const text = JSON.stringify(shown);
  return { bytes: Buffer.byteLength(text), tokens: tokensOf(text) };
}
