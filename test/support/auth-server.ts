import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ClientCredentialsProvider } from '@modelcontextprotocol/client';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import Provider from 'oidc-provider';
import { listenOnLoopback } from './loopback.js';

/**
 * A real authorization server for the auth tests: `oidc-provider` on a loopback port, issuing
 * client-credentials JWT access tokens for a resource (RFC 8707), each client limited to its own
 * scopes. Its signing key is the test's, so that the tests can also sign the tokens an issuer
 * must never be taken to have signed (expired, for another audience, from another issuer).
 */

export interface AuthServer {
  readonly issuer: string;
  /** A client-credentials token for this client and resource, as the issuer grants it. */
  token(clientId: string, resource: string, scope?: string): Promise<string>;
  /** A token signed with the issuer's key, with these claims over sound defaults. */
  sign(claims: Record<string, unknown>, resource: string): Promise<string>;
  close(): void;
}

/** The clients, their secrets and the scopes each may be granted. */
export const CLIENTS = {
  reader: { secret: 'reader-secret-reader-secret-0001', scope: 'notes:read' },
  writer: { secret: 'writer-secret-writer-secret-0001', scope: 'notes:read notes:write' },
} as const;

export async function startAuthServer(): Promise<AuthServer> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  // The port first, then the issuer that names it.
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    jwks: { keys: [jwk] },
    clients: Object.entries(CLIENTS).map(([clientId, { secret, scope }]) => ({
      client_id: clientId,
      client_secret: secret,
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      scope,
    })),
    scopes: ['notes:read', 'notes:write'],
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined as never,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resourceIndicator: string, client: { clientId: string }) => ({
          scope: CLIENTS[client.clientId as keyof typeof CLIENTS].scope,
          audience: resourceIndicator,
          accessTokenFormat: 'jwt',
          accessTokenTTL: 300,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
  });
  server.on('request', provider.callback());

  return {
    issuer,
    async token(clientId, resource, scope) {
      const { secret } = CLIENTS[clientId as keyof typeof CLIENTS];
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${btoa(`${clientId}:${secret}`)}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          resource,
          scope: scope ?? CLIENTS[clientId as keyof typeof CLIENTS].scope,
        }),
      });
      const body = (await response.json()) as { access_token?: string; error?: string };
      if (!body.access_token) throw new Error(`the test issuer refused a token: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    async sign(claims, resource) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ scope: CLIENTS.writer.scope, client_id: 'writer', ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key', typ: 'at+jwt' })
        .setIssuer((claims.iss as string | undefined) ?? issuer)
        .setAudience((claims.aud as string | undefined) ?? resource)
        .setSubject((claims.sub as string | undefined) ?? 'writer')
        .setIssuedAt(now)
        .setExpirationTime((claims.exp as number | undefined) ?? now + 300)
        .sign(privateKey);
    },
    close: () => server.close(),
  };
}

/** The SDK v2 client's own provider of this client's tokens, from this issuer. */
export function clientCredentials(
  auth: AuthServer,
  clientId: keyof typeof CLIENTS,
): ClientCredentialsProvider {
  return new ClientCredentialsProvider({
    clientId,
    clientSecret: CLIENTS[clientId].secret,
    scope: CLIENTS[clientId].scope,
    expectedIssuer: auth.issuer,
  });
}

type NodeHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/**
 * A resource server on a loopback port, its handler made once its URL is known (the resource its
 * tokens name: `<origin>/mcp`); the server is kept in `servers` for the test to close.
 */
export async function serveAtResource(
  servers: Server[],
  handlerOf: (resource: string) => NodeHandler,
): Promise<{ readonly origin: string; readonly resource: string }> {
  let handle: NodeHandler = async () => {};
  const port = await listenOnLoopback(
    createServer((request, response) => void handle(request, response)),
    servers,
  );
  const origin = `http://127.0.0.1:${port}`;
  const resource = `${origin}/mcp`;
  handle = handlerOf(resource);
  return { origin, resource };
}
