import { addHeaders, type HttpPort } from './http-port.js';

/**
 * The HTTP exchange's port on a fetch runtime, shared by the fetch handlers of `toolprep/mcp/web`
 * (both eras) and `toolprep/mcp/fetch` (2026-07-28 alone). It imports nothing of Node.
 */

/** The exchange's port on a fetch runtime: the request's signal is the client going. */
export function fetchPort(request: Request): HttpPort<Response> {
  const url = new URL(request.url);
  return {
    // A fetch runtime's request URL carries the host the client asked for (from its Host header).
    request: {
      method: request.method,
      host: url.host,
      path: url.pathname,
      header: (name) => request.headers.get(name) ?? undefined,
    },
    signal: request.signal,
    readBody: (maxBytes) => readBody(request, maxBytes),
    asRequest: (body) =>
      new Request(request.url, {
        method: request.method,
        headers: request.headers,
        ...(body === undefined || request.method === 'GET' || request.method === 'HEAD' ? {} : { body }),
        signal: request.signal,
      }),
    reply: (status, headers, body) => new Response(body, { status, headers }),
    stream(headers) {
      const encoder = new TextEncoder();
      const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
      const writer = writable.getWriter();
      return {
        send: (event) => void writer.write(encoder.encode(event)).catch(() => {}),
        end: () => void writer.close().catch(() => {}),
        reply: new Response(readable, { status: 200, headers }),
      };
    },
    relay: (response, added) => (added ? withHeaders(response, added) : response),
  };
}

/**
 * The response with these headers added: in place, or as a new response when its headers cannot
 * be changed (a response made by `fetch`, which a `modernFeatures` handler may return). In place
 * keeps a text body text: a copy streams it, which cost 100 µs a request.
 */
function withHeaders(response: Response, added: Readonly<Record<string, string>>): Response {
  try {
    addHeaders(response.headers, added);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    addHeaders(headers, added);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

/**
 * A request's body as text, or undefined when it is over `maxBytes`: a declared length over it is
 * refused before anything is read, and a stream that outgrows it is cancelled there.
 */
async function readBody(request: Request, maxBytes: number): Promise<string | undefined> {
  if (Number(request.headers.get('content-length')) > maxBytes) return undefined;
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let length = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    length += value.byteLength;
    if (length > maxBytes) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
}
