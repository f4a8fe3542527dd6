import { canonicalJson } from '../../../shared/run/canonical-text.js';

/**
 * The `requestState` of a 2026-07-28 input-required result: the answers a call has had so far,
 * bound to the call it belongs to (method, tool, a digest of its arguments) and to an expiry, and
 * signed with HMAC-SHA-256 so that a client cannot forge or alter it. Every node that may take a
 * retry must sign with the same key. Web Crypto only: it runs wherever the servers run.
 */

export interface RequestStateOptions {
  /**
   * The secret that signs request states: a string of at least 32 characters, or 32 bytes or
   * more. Give every node behind a load balancer the same one. Default: a random key made per
   * process, so that only the process that asked can take the answers.
   */
  readonly key?: string | Uint8Array;
  /** How long (ms) a client has to answer. Default 10 minutes. */
  readonly ttlMs?: number;
}

export interface RequestStateSigner {
  sign(call: BoundCall, answers: Readonly<Record<string, unknown>>): Promise<string>;
  /** The answers a state carries, or why it is refused. */
  verify(call: BoundCall, state: string): Promise<{ answers: Record<string, unknown> } | { refused: string }>;
}

/** What a state is bound to: the same request, retried. */
export interface BoundCall {
  readonly method: string;
  readonly name: string;
  readonly args: unknown;
}

interface Payload {
  readonly v: 1;
  /** Method, name and a digest of the arguments. */
  readonly call: string;
  /** Expiry, in ms since the epoch. */
  readonly exp: number;
  readonly answers: Record<string, unknown>;
}

const encoder = new TextEncoder();

export function requestStateSigner(options: RequestStateOptions = {}): RequestStateSigner {
  const ttlMs = options.ttlMs ?? 600_000;
  if (options.key !== undefined && keyBytes(options.key).length < 32)
    throw new Error('[toolprep] requestState.key must be at least 32 bytes (or 32 characters)');
  // Made on first use: a Worker may not make random values at start-up, outside a request.
  let key: ReturnType<typeof hmacKey> | undefined;
  const keyOnce = () => {
    key ??= hmacKey(options.key);
    return key;
  };
  const bind = async (call: BoundCall) =>
    `${call.method}\u0000${call.name}\u0000${toBase64Url(await sha256(canonicalJson(call.args ?? {})))}`;
  return {
    async sign(call, answers) {
      const payload: Payload = { v: 1, call: await bind(call), exp: Date.now() + ttlMs, answers };
      const body = toBase64Url(encoder.encode(JSON.stringify(payload)));
      const signature = await crypto.subtle.sign('HMAC', await keyOnce(), encoder.encode(body));
      return `${body}.${toBase64Url(new Uint8Array(signature))}`;
    },
    async verify(call, state) {
      const [body, signature, ...rest] = state.split('.');
      const signatureBytes = body && signature && rest.length === 0 ? fromBase64Url(signature) : undefined;
      if (!body || !signatureBytes) return { refused: 'it is not a request state this server issued' };
      const authentic = await crypto.subtle.verify(
        'HMAC',
        await keyOnce(),
        signatureBytes as Uint8Array<ArrayBuffer>,
        encoder.encode(body),
      );
      if (!authentic)
        return { refused: 'its signature does not match (altered, or signed with another key)' };
      const payload = JSON.parse(new TextDecoder().decode(fromBase64Url(body))) as Payload;
      if (payload.call !== (await bind(call))) return { refused: 'it belongs to another call' };
      if (payload.exp < Date.now()) return { refused: 'it has expired' };
      return { answers: payload.answers };
    },
  };
}

function hmacKey(secret: string | Uint8Array | undefined): ReturnType<typeof crypto.subtle.importKey> {
  const bytes = secret === undefined ? crypto.getRandomValues(new Uint8Array(32)) : keyBytes(secret);
  return crypto.subtle.importKey(
    'raw',
    bytes as Uint8Array<ArrayBuffer>,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
}

function keyBytes(secret: string | Uint8Array): Uint8Array {
  return typeof secret === 'string' ? encoder.encode(secret) : secret;
}

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

function fromBase64Url(text: string): Uint8Array | undefined {
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (character) => character.charCodeAt(0));
  } catch {
    return undefined;
  }
}
