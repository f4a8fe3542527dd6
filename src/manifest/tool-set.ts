import type { PreparedTool } from './prepared-tool.js';

/**
 * What the generated module exports as `tools`, and what `createToolRuntime` takes: the prepared
 * tools with the format they were written in, the extension keys they were prepared with, and a
 * loader per tool that imports its contract on the first call.
 */
export interface PreparedToolSet {
  /** The manifest format the tools were prepared in: `MANIFEST_FORMAT`. */
  readonly format: number;
  /** The extension keys every tool takes; none when left out. */
  readonly extensionKeys?: readonly string[];
  readonly prepared: readonly PreparedTool[];
  /** Loads a tool's contract, on its first call only. */
  readonly load: { readonly [name: string]: () => unknown };
}
