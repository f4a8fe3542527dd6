import { FACTORY } from './factory-calls.js';

/** A re-export with a module specifier: `export * from '…'`, `export { a } from '…'`. */
const RE_EXPORT = /export\s*(\*|\{|type\s*\{)[^;]*?from\s*['"]/;

/**
 * An export that may hold a call's result, a tool factory's possibly: an exported variable set to
 * a call or to an object or list literal, a default export of either, or a list of local exports.
 */
const EXPORTED_VALUE =
  /export\s+(const|let|var)\s+[\w$]+\s*(:[^=]*)?=\s*([\w$.]+\s*\(|[[{])|export\s+default\s+([\w$.]+\s*\(|[[{])|export\s*\{[^}]*\}(?!\s*from\b)/;

/**
 * Whether a file's text may hold a contract, read without parsing: it names `defineTool`,
 * re-exports another module, or exports a value a call may have made. Most files of a project do
 * none of these.
 */
export function mayHoldContracts(text: string): boolean {
  return text.includes(FACTORY) || RE_EXPORT.test(text) || EXPORTED_VALUE.test(text);
}
