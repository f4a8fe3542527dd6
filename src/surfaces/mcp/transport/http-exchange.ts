import type { ToolRuntime } from '../../../runtime/runner.js';
import { failureOf, logError } from '../../../shared/run/on-error.js';
import { refuseSdkToolsOfFactory } from '../compose/sdk-tools.js';
import { type FirstAnswers, firstAnswers, firstHttpAnswer } from '../legacy/first-answers.js';
import { loadSdk, SdkLeftOutError, SdkUnavailableError, sessionRefusals } from '../legacy/sdk-unavailable.js';
import { type ModernServing, modernServing } from '../modern/server.js';
import { groupsOf, withoutGroups } from '../service/groups.js';
import { type McpServerInfo, toolServiceOf } from '../service/tool-service.js';
import { isModernMessage } from '../wire/envelope.js';
import {
  ERRORS,
  errorText,
  type Id,
  idOf,
  JSON_HEADERS,
  jsonOf,
  SSE_HEADERS,
  sdkErrorText,
  sseEvent,
  TRANSPORT_ERROR,
} from '../wire/jsonrpc.js';
import type { JwtVerifierLoader } from './auth-options.js';
import { type BearerGate, bearerGate, type GatePass, withoutToken } from './bearer-gate.js';
import type { GroupEndpoints } from './group-endpoints.js';
import {
  corsHeaders,
  DEFAULT_MAX_BODY_BYTES,
  type HttpRequestView,
  MCP_METHODS,
  type McpHttpOptions,
  preflightHeaders,
  refusedOrigin,
  sessionOptionsOf,
} from './http-options.js';
import type { HeaderRecord, HttpPort } from './http-port.js';
import type { LegacyExchange, legacyExchange } from './legacy-exchange.js';

/**
 * One HTTP exchange for every runtime: what a request is (refused, a preflight, a 2026-07-28
 * request toolprep answers, one for the user's feature server, a 2025 one answered from the
 * prepared bytes or by the SDK) and how its answer is sent, decided once. The Node handler and the
 * fetch handler are ports: each says how to read a body, reply, stream and relay a `Response` on
 * its runtime, and nothing else. The teardown rule is one: the port's `signal` aborts when the
 * client goes, and everything the exchange started for the request (a call, a listen stream, the
 * feature server's answer, a 2025 server) ends with it.
 */

type HttpExchange = <Reply>(port: HttpPort<Reply>, parsedBody?: unknown) => Promise<Reply>;

/**
 * Loads the 2025 exchange, which is the SDK v1: given by the handlers that serve both eras; left
 * out by `toolprep/mcp/fetch`, whose bundle then holds no SDK (decision 0064).
 */
type LegacyLoader = () => Promise<{ readonly legacyExchange: typeof legacyExchange }>;

/**
 * What a handler loads when a request needs it: the 2025 exchange (the SDK v1) and the JWT
 * verifier (`jose`). Each is given by the handlers whose import graph may hold it; a bundle of the
 * web-standard handlers holds neither unless the user imported it (decisions 0064 and 0067).
 */
export interface ExchangeLoaders {
  readonly legacy?: LegacyLoader;
  readonly jwtVerifier?: JwtVerifierLoader;
}

/**
 * Where a group's endpoint is served from: the gate of the handler it belongs to (with `auth`), and
 * what a caller that sees none of the group's tools is told — what a path that names no group is
 * told, so that the group is not known to it.
 */
interface GroupEndpoint {
  readonly gate: BearerGate | undefined;
  readonly hiddenGroup: string;
}

/**
 * The exchange of a runtime's tools over HTTP, its serving made once per handler. Without
 * `loaders.legacy`, a 2025 request is refused, naming the handler that serves it. A group's
 * endpoint is served by an exchange of the group's view, behind its handler's gate.
 */
export function httpExchange(
  runtime: ToolRuntime,
  info: McpServerInfo,
  options: McpHttpOptions,
  loaders: ExchangeLoaders = {},
  endpoint?: GroupEndpoint,
): HttpExchange {
  const loadLegacy = loaders.legacy;
  const sessionOptions = sessionOptionsOf(options);
  // A 2026-07-28 client is answered here, without the `server`: its SDK tools would be missing there.
  if (options.server) refuseSdkToolsOfFactory(options.server);
  if (options.groupEndpoints) checkGroupEndpoints(runtime, options);
  // The group endpoints load with the first request, when they are on.
  let endpoints: Promise<GroupEndpoints<HttpExchange>> | undefined;
  // One gate, and one token verifier, per handler: a group's endpoint keeps its callers to their
  // view of the group through its handler's.
  const gate = endpoint
    ? endpoint.gate?.forView(runtime)
    : options.auth
      ? bearerGate(runtime, options.auth, loaders.jwtVerifier)
      : undefined;
  checkAccess(runtime, options, gate);
  // A feature server answers server/discover, where the groups extension cannot be declared: tools/list stays flat.
  const modern = modernServing(
    options.modernFeatures ? withoutGroups(runtime) : runtime,
    info,
    gate?.views.vary ? { ...options, cache: { ...options.cache, scope: 'private' } } : options,
  );
  // The prepared 2025 answers, when toolprep makes the server and serves statelessly: per view with `auth`.
  const firsts = new WeakMap<ToolRuntime, FirstAnswers | undefined>();
  const firstOf = (view: ToolRuntime): FirstAnswers | undefined => {
    if (options.server || sessionOptions || !loadLegacy) return undefined;
    if (!firsts.has(view)) firsts.set(view, firstAnswers(view, info, options));
    return firsts.get(view);
  };
  const preflight = preflightHeaders(toolServiceOf(runtime));
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const onerror = options.onerror ?? logError;
  // The 2025 exchange (the SDK's transport) is loaded by the first request that needs it; without
  // the SDK, 2025 requests are refused and 2026-07-28 ones served (decision 0043).
  let legacy: Promise<LegacyExchange | SdkUnavailableError> | undefined;
  const refusal = sessionRefusals(onerror);

  return async (port, parsedBody) => {
    let unknownGroup: string | undefined;
    if (options.groupEndpoints) {
      endpoints ??= import('./group-endpoints.js').then(({ groupEndpoints }) =>
        groupEndpoints(
          runtime,
          (view, noGroup) =>
            httpExchange(view, info, { ...options, groupEndpoints: false }, loaders, {
              gate,
              hiddenGroup: noGroup,
            }),
          { nameGroups: !gate },
        ),
      );
      const endpoint = (await endpoints)(port.request.path);
      if (typeof endpoint === 'function') return endpoint(port, parsedBody);
      unknownGroup = endpoint;
    }
    const cors = corsHeaders(port.request, options);
    const withCors = (headers: HeaderRecord): HeaderRecord => (cors ? { ...headers, ...cors } : headers);
    try {
      return await answer(port, parsedBody, cors, withCors, unknownGroup);
    } catch (error) {
      // The client learns that the server failed, not how: the error may name paths and hosts.
      onerror(failureOf('an MCP request failed inside the server', error));
      return port.reply(
        ERRORS.internal.status,
        withCors(JSON_HEADERS),
        sdkErrorText(ERRORS.internal.code, 'Internal error'),
      );
    }
  };

  async function answer<Reply>(
    port: HttpPort<Reply>,
    parsedBody: unknown,
    cors: HeaderRecord | undefined,
    withCors: (headers: HeaderRecord) => HeaderRecord,
    unknownGroup: string | undefined,
  ): Promise<Reply> {
    const { request } = port;
    let body = parsedBody;
    let text = parsedBody === undefined ? undefined : JSON.stringify(parsedBody);
    if (request.method === 'POST' && parsedBody === undefined) {
      text = await port.readBody(maxBodyBytes);
      if (text === undefined)
        return port.reply(
          413,
          withCors(JSON_HEADERS),
          sdkErrorText(
            TRANSPORT_ERROR,
            `Payload Too Large: Request body must not exceed ${maxBodyBytes} bytes`,
          ),
        );
      body = jsonOf(text);
    }
    // With `auth`, a path that names no group asks for a token first, as a group's endpoint does.
    const early = earlyAnswer(gate, options, preflight, request, gate ? undefined : unknownGroup);
    if (early) return port.reply(early.status, withCors(early.headers), early.body);
    let asker: GatePass | undefined;
    if (gate) {
      const passed = await gate.pass(
        request.header('authorization'),
        unknownGroup === undefined ? body : undefined,
      );
      if ('status' in passed) return port.reply(passed.status, withCors(passed.headers), passed.body);
      asker = passed;
      const noGroup = unknownGroup ?? (passed.view.list().length === 0 ? endpoint?.hiddenGroup : undefined);
      if (noGroup !== undefined) {
        const refused = transportError(404, `Not Found: ${noGroup}`, {});
        return port.reply(refused.status, withCors(refused.headers), refused.body);
      }
    }
    const route = routeOf(modern, firstOf(asker?.view ?? runtime), options, request, body);
    if (route.kind === 'answer') return port.reply(route.status, withCors(route.headers), route.body);
    if (route.kind === 'features') {
      const features = options.modernFeatures as NonNullable<McpHttpOptions['modernFeatures']>;
      return port.relay(
        await features(asker ? withoutToken(port.asRequest(text), text) : port.asRequest(text), body),
        cors,
      );
    }
    if (route.kind === 'legacy') {
      legacy ??= loadLegacy
        ? loadSdk(loadLegacy).then(
            (loaded) => loaded.legacyExchange(runtime, info, options, sessionOptions),
            (error: SdkUnavailableError) => error,
          )
        : Promise.resolve(new SdkLeftOutError());
      const exchange = await legacy;
      if (!(exchange instanceof SdkUnavailableError))
        return exchange(port, body, text, cors, withCors, asker);
      const refused = refusal(body, exchange);
      return port.reply(refused.status, withCors(JSON_HEADERS), refused.body);
    }
    const work = modern.accept(body, request.header, asker);
    if (!('run' in work))
      return port.reply(work.status, withCors(work.body === null ? {} : JSON_HEADERS), work.body);
    const responses = options.responses ?? 'auto';
    if (!(responses === 'sse' || (responses === 'auto' && work.notifies))) {
      const done = await work.run(() => {}, port.signal);
      return port.reply(done.status, withCors({ ...JSON_HEADERS, ...done.headers }), done.body);
    }
    const stream = port.stream(withCors(SSE_HEADERS));
    const id = idOf(body as Record<string, unknown>) as Id;
    work
      .run((message) => stream.send(sseEvent(message)), port.signal)
      .then(
        (done) => {
          if (done.body !== null) stream.send(sseEvent(done.body));
        },
        (error: unknown) => {
          onerror(failureOf('an MCP request failed inside the server', error));
          stream.send(sseEvent(errorText(id, { code: ERRORS.internal.code, message: 'Internal error' })));
        },
      )
      .finally(() => stream.end());
    return stream.reply;
  }
}

/** Where a request goes: an answer to send now, toolprep's 2026-07-28 serving, the user's features, or the SDK (2025). */
type Route =
  | {
      readonly kind: 'answer';
      readonly status: number;
      readonly body: string | null;
      readonly headers: HeaderRecord;
    }
  | { readonly kind: 'modern' }
  | { readonly kind: 'features' }
  | { readonly kind: 'legacy' };

/** An answer sent now, before the token is asked for. */
interface EarlyAnswer {
  readonly status: number;
  readonly body: string | null;
  readonly headers: HeaderRecord;
}

/**
 * What is answered before the token is asked for: a request whose `Host` or `Origin` is not
 * allowed is refused (403), a preflight from another origin among them; the protected resource
 * metadata is served (with `auth`); a group endpoint's path that names no group is 404; an
 * `OPTIONS` is answered 204 with the methods (and, from an allowed origin, what its preflight asks).
 */
function earlyAnswer(
  gate: BearerGate | undefined,
  options: McpHttpOptions,
  preflight: HeaderRecord,
  request: HttpRequestView,
  unknownGroup: string | undefined,
): EarlyAnswer | undefined {
  const origin = request.header('origin');
  const refused = refusedOrigin({ host: request.host, origin }, options);
  if (refused) return transportError(403, `Forbidden: ${refused}`, {});
  const metadata = request.method === 'OPTIONS' ? undefined : gate?.metadata(request.method, request.path);
  if (metadata) return metadata;
  if (unknownGroup !== undefined) return transportError(404, `Not Found: ${unknownGroup}`, {});
  if (request.method === 'OPTIONS')
    return {
      status: 204,
      body: null,
      headers: origin === undefined ? { allow: MCP_METHODS } : { allow: MCP_METHODS, ...preflight },
    };
  return undefined;
}

/**
 * A 2026-07-28 request is toolprep's to answer (or the user's feature server's, for the methods
 * toolprep's table leaves to it), a POST only (405 otherwise); a 2025 request is answered from the
 * prepared bytes when they hold its answer, and by the SDK otherwise.
 */
function routeOf(
  modern: ModernServing,
  first: FirstAnswers | undefined,
  options: McpHttpOptions,
  request: HttpRequestView,
  body: unknown,
): Route {
  if (!Array.isArray(body) && isModernMessage(body, request.header('mcp-protocol-version')?.trim())) {
    if (request.method !== 'POST')
      return {
        kind: 'answer',
        ...transportError(405, 'Method not allowed: 2026-07-28 requests are POSTs', { allow: 'POST' }),
      };
    if (options.modernFeatures && modern.yields((body as { method?: unknown } | undefined)?.method))
      return { kind: 'features' };
    return { kind: 'modern' };
  }
  const prepared = first && firstHttpAnswer(first, request, body, options.responses);
  if (prepared)
    return {
      kind: 'answer',
      status: prepared.status,
      body: prepared.body,
      headers: prepared.body === null ? {} : JSON_HEADERS,
    };
  return { kind: 'legacy' };
}

/** A refusal as the SDKs' transports word theirs. */
function transportError(status: number, message: string, headers: HeaderRecord): EarlyAnswer {
  return {
    status,
    body: sdkErrorText(TRANSPORT_ERROR, message),
    headers: { ...JSON_HEADERS, ...headers },
  };
}

/**
 * Refuses, at start, access rules the options cannot keep: a tool that asks for scopes served
 * without `auth` (every caller would call it), and, with `auth`, a `server` of yours (it lists
 * every tool attached to it, to every caller) or a public cache hint on lists that differ by caller.
 */
function checkAccess(runtime: ToolRuntime, options: McpHttpOptions, gate: BearerGate | undefined): void {
  if (!gate) {
    const scoped = runtime.list().filter((tool) => tool.access?.scopes?.length);
    if (scoped.length > 0)
      throw new Error(
        `[toolprep] tools ${scoped.map((tool) => `"${tool.name}"`).join(', ')} ask for scopes (access), but the HTTP handler has no auth: give auth (docs/guide/who-may-call-what.md), or serve them over stdio`,
      );
    return;
  }
  if (options.server)
    throw new Error(
      "[toolprep] auth cannot keep each caller to its tools on a server of yours (server): it lists every tool attached to it, to every caller. Leave `server` out: toolprep's own server then serves each caller its tools on both eras (with `sessions` if a handler asks the client something); serve your resources and prompts to 2026-07-28 clients with `modernFeatures: featureHandler(runtime, () => yourServer())` from toolprep/mcp/v2, and turn tools registered with registerTool into contracts with their scopes (docs/guide/who-may-call-what.md)",
    );
  if (gate.views.vary && options.cache?.scope === 'public')
    throw new Error(
      "[toolprep] cache.scope is 'public', but with auth the tools' access rules make lists differ by caller: leave cache.scope out (it is then 'private')",
    );
}

/** Refuses, at start, group endpoints a runtime or its options cannot have. */
function checkGroupEndpoints(runtime: ToolRuntime, options: McpHttpOptions): void {
  if (!groupsOf(runtime))
    throw new Error(
      '[toolprep] groupEndpoints: true, but the tools have no groups: put tools in folders (tools/<group>/…) or give contracts a group',
    );
  if (options.server)
    throw new Error(
      '[toolprep] groupEndpoints cannot scope a server of yours (server): it lists every tool attached to it; serve the groups without `server`',
    );
}
