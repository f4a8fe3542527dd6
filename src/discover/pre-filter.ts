import { FACTORY } from './factory-calls.js';

/** A re-export with a module specifier: `export * from '…'`, `export { a } from '…'`. */
const RE_EXPORT = /export\s*(\*|\{|type\s*\{)[^;]*?from\s*['"]/;

/** An exported variable set to a call's result: a tool factory's, possibly. */
const EXPORTED_CALL = /export\s+(const|let|var)\s+[\w$]+\s*(:[^=]*)?=\s*[\w$.]+\s*\(/;

/**
 * Whether a file's text may hold a contract, read without parsing: it names `defineTool`,
 * re-exports another module, or exports a call's result. Most files of a project do none of these.
 */
export function mayHoldContracts(text: string): boolean {
  return text.includes(FACTORY) || RE_EXPORT.test(text) || EXPORTED_CALL.test(text);
}
