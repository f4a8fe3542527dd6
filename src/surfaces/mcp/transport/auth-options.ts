import type { Caller, WithoutScopes } from '../service/caller-views.js';

/** The options of the HTTP handlers' OAuth resource-server gate (`auth`; bearer-gate.ts is the gate). */

/** The resource this server is, as its protected resource metadata (RFC 9728) says. */
export interface ResourceMetadataOptions {
  /** The resource's URL, as clients reach it (`https://mcp.example.com/mcp`): a token's audience by default. */
  readonly resource: string;
  /** The issuers clients get tokens from. Default: `[auth.issuer]`. */
  readonly authorizationServers?: readonly string[];
  /**
   * The scopes the metadata lists (`scopes_supported`). Default: none. An MCP client asks for
   * these when a challenge names none, so listing every tool's scopes would have every client ask
   * for all of them; without the list, each asks for the scopes it was set up with.
   */
  readonly scopesSupported?: readonly string[];
}

/** A JWT access token verified against its issuer's keys (JWKS) with `jose`. */
export interface JwtAuthOptions {
  /** The issuer (`iss`) every token must name, as its metadata says it. */
  readonly issuer: string;
  /** The audience (`aud`) a token must name. Default: `resourceMetadata.resource`. */
  readonly audience?: string | readonly string[];
  /**
   * Where the issuer's signing keys are. Default: the `jwks_uri` of the issuer's metadata
   * (RFC 8414 `/.well-known/oauth-authorization-server`, else OpenID `/.well-known/openid-configuration`),
   * read on the first token.
   */
  readonly jwksUri?: string;
  /** The clock skew allowed on `exp` and `nbf`, in seconds: 0 to 300. Default 5. */
  readonly clockToleranceSec?: number;
  /** The signing algorithms taken. Default: the asymmetric ones (RS*, PS*, ES*, EdDSA); never `none`. */
  readonly algorithms?: readonly string[];
  /**
   * The verifier, `jwtVerifier` of `toolprep/mcp/jwt` (which is `jose`): needed by the
   * web-standard handlers, whose bundle then holds `jose` because you imported it (decision 0067).
   * Default in `toolprep/mcp`: loaded with the first token.
   */
  readonly jwtVerifier?: JwtVerifier;
}

/** What a JWT verifier is given: the options, with the defaults filled in. */
type JwtVerifierOptions = Omit<JwtAuthOptions, 'jwtVerifier'> & {
  readonly clockToleranceSec: number;
  readonly audience: string | readonly string[];
};

/** Makes the check of a token: the caller, or why the token is refused. */
export type JwtVerifier = (
  options: JwtVerifierOptions,
) => (token: string) => Promise<Caller | { refused: string }>;

/** Loads the JWT verifier with the first token: given by the Node handler (decision 0067). */
export type JwtVerifierLoader = () => Promise<{ readonly jwtVerifier: JwtVerifier }>;

/** A token verified by your own code: the caller, or undefined to refuse it (401 `invalid_token`). */
export interface VerifyAuthOptions {
  verify(token: string): Promise<Caller | undefined>;
}

export type McpAuthOptions = (JwtAuthOptions | VerifyAuthOptions) & {
  readonly resourceMetadata: ResourceMetadataOptions;
  /**
   * What a caller whose token lacks a tool's scopes meets: `hidden` (the default: the tool is not
   * in its list, and a call to it is answered as a call to an unknown tool), or `step-up` (every
   * tool is listed, and a call without its scopes is refused 403 `insufficient_scope`, naming them,
   * so that the client can ask for a broader token).
   */
  readonly withoutScopes?: WithoutScopes;
};
