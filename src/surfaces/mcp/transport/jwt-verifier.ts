import { createRemoteJWKSet, errors, jwtVerify as verifyJwt } from 'jose';
import type { JwtAuthOptions, JwtVerifier } from './auth-options.js';

/**
 * JWT access tokens verified with `jose` against the issuer's keys: the signature (asymmetric
 * algorithms only, so neither `none` nor a key guessed from the token), the issuer, the audience,
 * and `exp` (required) within the clock tolerance. The Node handler loads it with the first token
 * it sees; the web-standard handlers are given it (`toolprep/mcp/jwt`), so that a bundle holds
 * `jose` only when the server verifies JWTs (decision 0067).
 */

const ASYMMETRIC = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

export const jwtVerifier: JwtVerifier = (options) => {
  let keys: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  const keysOnce = () => {
    if (!keys) {
      keys = jwksUriOf(options).then((uri) => createRemoteJWKSet(new URL(uri)));
      // The issuer's metadata unreachable now: asked again by the next token.
      keys.catch(() => {
        keys = undefined;
      });
    }
    return keys;
  };
  return async (token) => {
    const jwks = await keysOnce();
    try {
      const { payload } = await verifyJwt(token, jwks, {
        issuer: options.issuer,
        audience: options.audience as string | string[],
        algorithms: [...(options.algorithms ?? ASYMMETRIC)],
        clockTolerance: options.clockToleranceSec,
        requiredClaims: ['exp'],
      });
      // RFC 9068: `sub` is the resource owner, or the client itself for client credentials.
      const subject = payload.sub ?? (typeof payload.client_id === 'string' ? payload.client_id : undefined);
      if (subject === undefined) return { refused: 'the token names no subject (sub)' };
      return { subject, scopes: scopesOf(payload), claims: payload };
    } catch (error) {
      const refused = refusalOf(error);
      if (refused === undefined) throw error;
      return { refused };
    }
  };
};

/** The scopes of a token: `scope` (RFC 9068, space-separated) or `scp` (a list, as some issuers write it). */
function scopesOf(payload: Record<string, unknown>): string[] {
  if (typeof payload.scope === 'string') return payload.scope.split(' ').filter(Boolean);
  if (Array.isArray(payload.scp)) return payload.scp.filter((scope) => typeof scope === 'string');
  return [];
}

/** Why a token is refused, in words that name no key and no token; undefined when the server failed, not the token. */
function refusalOf(error: unknown): string | undefined {
  if (error instanceof errors.JWTExpired) return 'the token has expired';
  if (error instanceof errors.JWTClaimValidationFailed)
    return `the token's ${error.claim} claim is not accepted`;
  if (error instanceof errors.JOSEAlgNotAllowed) return "the token's algorithm is not accepted";
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey)
    return "the token's signature does not verify";
  if (error instanceof errors.JWKSTimeout) return undefined;
  if (error instanceof errors.JOSEError) return 'the token is not a valid JWT';
  return undefined;
}

/** The issuer's JWKS address: given, or its metadata's `jwks_uri` (RFC 8414, else OpenID discovery). */
async function jwksUriOf(options: JwtAuthOptions): Promise<string> {
  if (options.jwksUri) return options.jwksUri;
  const issuer = new URL(options.issuer);
  const path = issuer.pathname === '/' ? '' : issuer.pathname.replace(/\/$/, '');
  const candidates = [
    `${issuer.origin}/.well-known/oauth-authorization-server${path}`,
    `${issuer.origin}${path}/.well-known/openid-configuration`,
  ];
  for (const url of candidates) {
    const response = await fetch(url, { headers: { accept: 'application/json' } });
    if (!response.ok) continue;
    const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    // RFC 8414 §3.3: metadata naming another issuer is not this issuer's.
    if (metadata.issuer !== options.issuer)
      throw new Error(
        `[toolprep] the metadata at ${url} names the issuer ${JSON.stringify(metadata.issuer)}, not auth.issuer "${options.issuer}"`,
      );
    if (typeof metadata.jwks_uri === 'string') return metadata.jwks_uri;
  }
  throw new Error(
    `[toolprep] auth: found no jwks_uri for the issuer "${options.issuer}" at ${candidates.join(' or ')}: give auth.jwksUri`,
  );
}
