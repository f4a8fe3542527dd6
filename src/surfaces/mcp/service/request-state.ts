import type { RequestStateSigner } from './state-signature.js';

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

export type { BoundCall, RequestStateSigner } from './state-signature.js';

/** The signer of this serving: the key checked now, the signing code loaded on first use. */
export function requestStateSigner(options: RequestStateOptions = {}): RequestStateSigner {
  const ttlMs = options.ttlMs ?? 600_000;
  const key = options.key === undefined ? undefined : keyBytes(options.key);
  if (key !== undefined && key.length < 32)
    throw new Error('[toolprep] requestState.key must be at least 32 bytes (or 32 characters)');
  let signer: Promise<RequestStateSigner> | undefined;
  const loaded = () => {
    signer ??= import('./state-signature.js').then(({ stateSigner }) => stateSigner(key, ttlMs));
    return signer;
  };
  return {
    sign: async (call, answers) => (await loaded()).sign(call, answers),
    verify: async (call, state) => (await loaded()).verify(call, state),
  };
}

function keyBytes(secret: string | Uint8Array): Uint8Array {
  return typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
}
