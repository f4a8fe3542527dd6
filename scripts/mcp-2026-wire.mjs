// A 2026-07-28 request as a client puts it on the wire, for the tests and the benchmarks that
// speak the protocol with fetch or node:http rather than through an SDK.

export const VERSION = '2026-07-28';

/**
 * The headers of a POST: `Mcp-Name` is the tool's name, or the task's id on `tasks/*`, as the
 * specification says; `extra` replace them by name.
 */
export function requestHeaders(method, params = {}, extra = {}) {
  // Mcp-Name: a task's id, a tool's or prompt's name, or a resource's URI (`resources/read`).
  const named = typeof params.taskId === 'string' ? params.taskId : (params.name ?? params.uri);
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': VERSION,
    'mcp-method': method,
    ...(typeof named === 'string' ? { 'mcp-name': named } : {}),
    ...extra,
  };
}

/** The `_meta` every request carries: the version, and what the client declares it can do. */
export function requestMeta(capabilities = {}) {
  return {
    'io.modelcontextprotocol/protocolVersion': VERSION,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  };
}
