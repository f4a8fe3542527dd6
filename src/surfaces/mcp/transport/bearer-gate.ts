import type { ToolRuntime } from '../../../runtime/runner.js';
import { isRecord } from '../../../shared/run/is-record.js';
import type { Asker } from '../modern/method-table.js';
import { type Caller, type CallerViews, callerViews } from '../service/caller-views.js';
import { JSON_HEADERS } from '../wire/jsonrpc.js';
import type { JwtAuthOptions, JwtVerifierLoader, McpAuthOptions } from './auth-options.js';
import type { HeaderRecord } from './http-port.js';

/**
 * The OAuth resource-server gate of the HTTP handlers (`auth`): the bearer token checked before a
 * request reaches MCP, the protected resource metadata (RFC 9728) served, and the caller handed on
 * with the view of the tools it may see. A request without a token, or with one refused, is
 * answered 401 with the challenge that sends a client to its authorization server; a call to a
 * tool whose scopes the token lacks, with `withoutScopes: 'step-up'`, 403 naming the scopes, before
 * its arguments are parsed. The token goes nowhere past this file: not to a handler, the SDK, a
 * hook or a log (decision 0054). It imports nothing of Node.
 */

/** An answer of the gate's own. */
interface GateAnswer {
  readonly status: number;
  readonly headers: HeaderRecord;
  readonly body: string | null;
}

/**
 * A request the gate let through: who asks, the view of the tools it may see, and who may use the
 * 2025 session it opens or names — its subject and its view's key, so that a session lists and
 * calls what its opener's list held, for its opener only.
 */
export interface GatePass extends Asker {
  readonly sessionOwner: string;
}

/** What the gate says of a request: who asks, or the answer that refuses it (401, 403). */
type GateOutcome = GatePass | GateAnswer;

export interface BearerGate {
  readonly views: CallerViews;
  /** The protected resource metadata, when a request asks for it at one of its paths. */
  metadata(method: string, path: string): GateAnswer | undefined;
  pass(authorization: string | undefined, body: unknown): Promise<GateOutcome>;
  /**
   * The same gate before a view of the runtime (a group's endpoint): its callers kept to what they
   * see of that view, their tokens checked by the one verifier of the server.
   */
  forView(view: ToolRuntime): BearerGate;
}

/** The JWT verifier's own options, which a `verify` of the user's leaves unread (`issuer` still names the authorization server). */
const JWT_ONLY_KEYS = ['audience', 'jwksUri', 'clockToleranceSec', 'algorithms', 'jwtVerifier'] as const;

/**
 * The gate of `auth`. `loadJwtVerifier` is the Node handler's: without it, `auth.issuer` needs
 * `auth.jwtVerifier`, so that a bundle of the web-standard handlers holds `jose` only when it is
 * used (decision 0067).
 */
export function bearerGate(
  runtime: ToolRuntime,
  auth: McpAuthOptions,
  loadJwtVerifier?: JwtVerifierLoader,
): BearerGate {
  const { resourceMetadata } = auth;
  const resource = new URL(resourceMetadata.resource);
  const issuer = 'issuer' in auth ? auth.issuer : undefined;
  const authorizationServers = resourceMetadata.authorizationServers ?? (issuer ? [issuer] : []);
  if (authorizationServers.length === 0)
    throw new Error(
      '[toolprep] auth.resourceMetadata.authorizationServers is needed with auth.verify: name the issuers that issue the tokens clients present',
    );
  const metadataText = JSON.stringify({
    resource: resourceMetadata.resource,
    authorization_servers: authorizationServers,
    ...(resourceMetadata.scopesSupported ? { scopes_supported: resourceMetadata.scopesSupported } : {}),
    bearer_methods_supported: ['header'],
  });
  // RFC 9728 §3.1: the well-known path goes between the host and the resource's path.
  const resourcePath = resource.pathname === '/' ? '' : resource.pathname.replace(/\/$/, '');
  const metadataPaths = new Set([
    `/.well-known/oauth-protected-resource${resourcePath}`,
    '/.well-known/oauth-protected-resource',
  ]);
  const metadataUrl = `${resource.origin}/.well-known/oauth-protected-resource${resourcePath}`;
  const challenge = (parameters: string) => `Bearer ${parameters}resource_metadata="${metadataUrl}"`;
  if ('verify' in auth) {
    const unread = JWT_ONLY_KEYS.filter((key) => key in auth);
    if (unread.length > 0)
      throw new Error(
        `[toolprep] auth.verify checks tokens itself, so auth.${unread.join(', auth.')} would be ignored: leave ${unread.length > 1 ? 'them' : 'it'} out, or leave verify out to verify JWTs`,
      );
  }
  const verify =
    'verify' in auth ? auth.verify : issuerVerify(auth, resourceMetadata.resource, loadJwtVerifier);

  const refusal = (
    status: 401 | 403,
    header: string,
    error: string | undefined,
    description: string,
  ): GateAnswer => ({
    status,
    headers: { ...JSON_HEADERS, 'www-authenticate': header },
    body: JSON.stringify({ ...(error ? { error } : {}), error_description: description }),
  });
  const noToken = refusal(401, challenge(''), undefined, 'This server needs a bearer token');

  const gateOf = (views: CallerViews): BearerGate => ({
    views,
    forView: (view) => gateOf(callerViews(view, auth.withoutScopes)),
    metadata(method, path): GateAnswer | undefined {
      if (!metadataPaths.has(path)) return undefined;
      if (method !== 'GET') return { status: 405, headers: { allow: 'GET' }, body: null };
      // A public document: any page may read it.
      return {
        status: 200,
        headers: { ...JSON_HEADERS, 'access-control-allow-origin': '*' },
        body: metadataText,
      };
    },
    async pass(authorization, body) {
      const token = bearerToken(authorization);
      const called = calledTools(body);
      let caller: Caller | undefined;
      if (token === undefined) {
        // Without a token, only calls of public tools: anything else (a list too) asks for one, so
        // that a client authenticates, and a hidden tool's name is not told from an unknown one.
        if (called.length === 0 || !isCallsOnly(body) || !called.every(views.isPublic)) return noToken;
      } else {
        const verified =
          token === '' ? { refused: 'the token is empty' } : await verifyRedacted(verify, token);
        if (!verified || 'refused' in verified) {
          const why = verified?.refused ?? 'the token was refused';
          return refusal(
            401,
            challenge(`error="invalid_token", error_description="${why}", `),
            'invalid_token',
            why,
          );
        }
        caller = verified;
      }
      const { view, key } = views.viewOf(caller);
      for (const name of called) {
        // Scope tokens hold no quote or backslash (RFC 6749 §3.3; the build checks them).
        const lacked = views.lackedScopes(name, caller);
        if (lacked)
          return refusal(
            403,
            challenge(`error="insufficient_scope", scope="${lacked.join(' ')}", `),
            'insufficient_scope',
            `This call needs the scopes: ${lacked.join(' ')}`,
          );
      }
      return {
        caller,
        view,
        sessionOwner: JSON.stringify([caller?.subject ?? null, key]),
      };
    },
  });
  return gateOf(callerViews(runtime, auth.withoutScopes));
}

/** The token of an `Authorization: Bearer …` header; undefined without one (or with another scheme). */
function bearerToken(authorization: string | undefined): string | undefined {
  const match = authorization === undefined ? null : /^bearer(?:\s+(.*))?$/i.exec(authorization.trim());
  return match ? (match[1] ?? '').trim() : undefined;
}

/** The names of the tools a request calls: one `tools/call`, or those of a 2025 batch. */
function calledTools(body: unknown): string[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((message) =>
    isRecord(message) &&
    message.method === 'tools/call' &&
    isRecord(message.params) &&
    typeof message.params.name === 'string'
      ? [message.params.name]
      : [],
  );
}

/** Whether every message of a request is a `tools/call`. */
function isCallsOnly(body: unknown): boolean {
  return (Array.isArray(body) ? body : [body]).every(
    (message) => isRecord(message) && message.method === 'tools/call',
  );
}

/**
 * The verifier's answer; what it throws goes to `onerror` and the log, so it is rethrown with the
 * token cut out of its message and stack, and without the original as its cause.
 */
async function verifyRedacted(
  verify: (token: string) => Promise<Caller | { refused: string } | undefined>,
  token: string,
): Promise<Caller | { refused: string } | undefined> {
  try {
    return await verify(token);
  } catch (thrown) {
    const redact = (text: string) => text.replaceAll(token, '[token]');
    const error = new Error(redact(thrown instanceof Error ? thrown.message : String(thrown)));
    if (thrown instanceof Error && thrown.stack) error.stack = redact(thrown.stack);
    throw error;
  }
}

/** The check of `auth.issuer`'s JWTs: the verifier given, or the one loaded with the first token. */
function issuerVerify(
  options: JwtAuthOptions,
  resource: string,
  loadJwtVerifier: JwtVerifierLoader | undefined,
): (token: string) => Promise<Caller | { refused: string }> {
  const tolerance = options.clockToleranceSec ?? 5;
  if (!(tolerance >= 0 && tolerance <= 300))
    throw new Error(
      `[toolprep] auth.clockToleranceSec is ${tolerance}: give 0 to 300 seconds (a token's expiry means little past that)`,
    );
  const { jwtVerifier, ...given } = options;
  const verifierOptions = { ...given, clockToleranceSec: tolerance, audience: options.audience ?? resource };
  if (jwtVerifier) return jwtVerifier(verifierOptions);
  if (!loadJwtVerifier)
    throw new Error(
      "[toolprep] auth.issuer needs auth.jwtVerifier in a web-standard handler: import { jwtVerifier } from 'toolprep/mcp/jwt' and give auth: { issuer, jwtVerifier, resourceMetadata } (with jose installed); a bundle holds jose only then",
    );
  let verifier: Promise<(token: string) => Promise<Caller | { refused: string }>> | undefined;
  return async (token) => {
    verifier ??= loadJwtVerifier().then((loaded) => loaded.jwtVerifier(verifierOptions));
    // A verifier that could not be made (jose missing) is made again by the next request.
    return (
      await verifier.catch((error: unknown) => {
        verifier = undefined;
        throw error;
      })
    )(token);
  };
}

/**
 * The request as what is behind the gate gets it (the SDK's 2025 server, a \`modernFeatures\`
 * handler): without its \`Authorization\` header, so that the token reaches no handler, hook or log.
 */
export function withoutToken(request: Request, text: string | undefined): Request {
  const headers = new Headers(request.headers);
  headers.delete('authorization');
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : text;
  return new Request(request.url, { method: request.method, headers, body, signal: request.signal });
}
