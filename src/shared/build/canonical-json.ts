import { createHash } from 'node:crypto';
import { canonicalJson } from '../run/canonical-text.js';

export { canonicalJson } from '../run/canonical-text.js';

export function digestOf(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 16);
}

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

/** The digest of a file's content, or of a text in pieces as the text they make (32 hex digits). */
export function contentDigest(data: string | Buffer | readonly string[]): string {
  const hash = createHash('sha256');
  // A text in pieces is digested as the text they make (the emitters cut no character in two).
  for (const piece of typeof data === 'object' && !Buffer.isBuffer(data) ? data : [data]) hash.update(piece);
  return hash.digest('hex').slice(0, 32);
}
