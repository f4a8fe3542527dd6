/**
 * A 2026-07-28 request as a client sends it over Streamable HTTP: a POST with the envelope (the
 * protocol version and this request's capabilities) in `_meta`, and the `Mcp-Method` header. For
 * tests that read an answer's bytes through a fetch handler, where an SDK client would parse them.
 */
export function modernRequest(
  url: string | URL,
  method: string,
  params: object,
  capabilities: object,
  headers: Record<string, string> = {},
): Request {
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  };
  return new Request(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: envelope } }),
  });
}
