import type { ToolContent } from '../contract/results.js';
import type { ProtocolError, Step, ToolError, ToolIssue } from './call-types.js';
import { formatPath } from './json-text.js';

/**
 * What a failed call's error says where only a failing call needs it: loaded on the first such
 * failure, so that a server whose calls pass never loads it.
 */

/**
 * The one place a thrown value becomes a call's error, by the step that threw it: a loader's error is the server's, and its message (which names files on
 * the server) goes to the hook as the cause, not to the caller; the handler's error reaches the
 * model by its message, never its stack; a throwing output parser refuses the value; anything else
 * is the server's own code (a parser's transform, `extend.resolve`, a hook).
 */
export function thrownError(step: Step, name: string, cause: unknown): ToolError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const tool = `Tool "${name}"`;
  switch (step) {
    case 'load':
      return { code: 'LOAD_ERROR', message: `${tool} could not run: its contract did not load`, issues: [] };
    case 'handler': {
      const protocol = protocolErrorOf(cause);
      return { code: 'HANDLER_ERROR', message: reason, issues: [], ...(protocol && { protocol }) };
    }
    case 'output':
      return {
        code: 'OUTPUT_ERROR',
        message: `${tool} returned a value its output schema could not parse: ${reason}`,
        issues: [],
      };
  }
  return { code: 'HANDLER_ERROR', message: `${tool} could not run: ${reason}`, issues: [] };
}

/** A handler's value its contract's output schema refuses: the tool's fault, never the caller's. */
export function outputError(name: string, issues: readonly ToolIssue[]): ToolError {
  // A refusal of the whole value is about the value, not the arguments.
  const details = issues
    .map((issue) =>
      issue.path.length === 0 ? `the value: ${issue.message}` : `${formatPath(issue.path)}: ${issue.message}`,
    )
    .join('; ');
  return {
    code: 'OUTPUT_ERROR',
    message: `Tool "${name}" returned a value its output schema refuses: ${details}`,
    issues,
  };
}

/**
 * A tool's error as its handler reported it (an MCP result with `isError: true`), for every surface
 * that sends an error as text: its text parts (an embedded text resource's text too), or its
 * structured content as JSON where it has none; the parts text cannot carry are counted, not lost
 * without a word. MCP sends the result itself.
 */
export function reportedError(name: string, result: ToolContent): ToolError {
  const texts = result.content.flatMap((part) =>
    part.type === 'text'
      ? [part.text]
      : part.type === 'resource' && 'text' in part.resource
        ? [part.resource.text]
        : [],
  );
  const others = result.content.length - texts.length;
  if (texts.length === 0)
    texts.push(
      result.structured === undefined
        ? `Tool "${name}" reported an error`
        : JSON.stringify(result.structured),
    );
  if (others > 0)
    texts.push(`[${others} more part${others === 1 ? '' : 's'} of this error, sent to MCP clients only]`);
  const message = texts.join('\n');
  return { code: 'HANDLER_ERROR', message, issues: [], result };
}

/** The JSON-RPC error a handler threw, when what it threw is one. */
function protocolErrorOf(cause: unknown): ProtocolError | undefined {
  if (typeof cause !== 'object' || cause === null) return undefined;
  const { code, message, data } = cause as { code?: unknown; message?: unknown; data?: unknown };
  if (!Number.isInteger(code) || (code as number) < -32768 || (code as number) > -32000) return undefined;
  if (typeof message !== 'string') return undefined;
  return { code: code as number, message, ...(data === undefined ? {} : { data }) };
}
