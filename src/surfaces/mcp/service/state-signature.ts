import { canonicalJson } from '../../../shared/run/canonical-text.js';

/**
 * The signing and checking of request states (request-state.ts says what they are), loaded by the
 * first call that asks the client a question or carries answers.
 */

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
  /** The caller's subject, over HTTP with `auth`. */
  readonly subject?: string;
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

/** A signer with this key (a random one per process when none is given). */
export function stateSigner(key: Uint8Array | undefined, ttlMs: number): RequestStateSigner {
  // Made on first use: a Worker may not make random values at start-up, outside a request.
  let hmac: ReturnType<typeof hmacKey> | undefined;
  const keyOnce = () => {
    hmac ??= hmacKey(key);
    return hmac;
  };
  // Arguments are an object, so a subject's pair cannot be taken for arguments without one.
  const bound = (call: BoundCall) =>
    call.subject === undefined ? (call.args ?? {}) : [call.subject, call.args ?? {}];
  const bind = async (call: BoundCall) =>
    `${call.method}\u0000${call.name}\u0000${toBase64Url(await sha256(canonicalJson(bound(call))))}`;
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

function hmacKey(secret: Uint8Array | undefined): ReturnType<typeof crypto.subtle.importKey> {
  const bytes = secret === undefined ? crypto.getRandomValues(new Uint8Array(32)) : secret;
  return crypto.subtle.importKey(
    'raw',
    bytes as Uint8Array<ArrayBuffer>,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
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
