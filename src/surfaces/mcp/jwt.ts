/**
 * `toolprep/mcp/jwt`: the JWT verifier of `auth.issuer` (`jose`), handed to a web-standard handler
 * as `auth.jwtVerifier`, so that a bundle holds `jose` only when it verifies JWTs (decision 0067).
 * `toolprep/mcp`'s Node handler loads it on its own with the first token. It imports nothing of Node.
 */

export { jwtVerifier } from './transport/jwt-verifier.js';
