import type { McpHeader } from '../manifest/prepared-tool.js';
import type { CallResult, ToolRuntime } from '../runtime/runner.js';
import { isRecord } from '../shared/run/is-record.js';
import { LOGGING_LEVELS, type LoggingLevel } from './mcp-context.js';
import {
  type AttachToolsOptions,
  errorResultOf,
  type McpServerInfo,
  pageOf,
  servingOf,
  startOf,
  toolResultOf,
} from './mcp-listing.js';
import {
  isAnswerTo,
  META,
  MODERN_VERSION,
  modernContext,
  type QuestionAsker,
  supportsMode,
  TASKS_EXTENSION,
} from './mcp-modern-context.js';
import {
  type BoundCall,
  type RequestStateOptions,
  type RequestStateSigner,
  requestStateSigner,
} from './mcp-request-state.js';
import type { HeaderReader, McpTasks, TaskServingOptions } from './mcp-tasks.js';

/**
 * MCP 2026-07-28, the stateless revision, served by toolprep itself: every request carries its
 * protocol version and client capabilities, so each is answered on its own, with nothing kept
 * between requests. `server/discover` and each `tools/list` page are JSON text made once per
 * process from the prepared documents; `tools/call` runs the runtime. No SDK is loaded. It imports
 * nothing of Node: the stdio reader, the Node HTTP handler and the fetch handler all use it.
 */

/** The JSON-RPC errors of 2026-07-28 and the HTTP status each goes with. */
const ERRORS = {
  invalidRequest: { code: -32600, status: 400 },
  methodNotFound: { code: -32601, status: 404 },
  invalidParams: { code: -32602, status: 400 },
  /** Invalid params that are not about the envelope (a tool that does not exist, a bad cursor). */
  invalidArgument: { code: -32602, status: 200 },
  headerMismatch: { code: -32020, status: 400 },
  missingCapability: { code: -32021, status: 400 },
  unsupportedVersion: { code: -32022, status: 400 },
} as const;

export interface ModernOptions extends AttachToolsOptions {
  /**
   * The caching hints of `server/discover` and `tools/list`. Default `{ ttlMs: 300000, scope:
   * 'public' }`: the prepared list is the same for every caller (so any cache may share it) and
   * changes only with a deploy (so five minutes of staleness is the most a client sees).
   */
  readonly cache?: { readonly ttlMs?: number; readonly scope?: 'public' | 'private' };
  /** How the state of an input-required result is signed (shared by every node: see the docs). */
  readonly requestState?: RequestStateOptions;
  /**
   * Where the tasks of tools whose contracts run them as tasks are kept and run, and who may read
   * them (docs/guide/tasks.md). Default: in this process's memory.
   */
  readonly tasks?: TaskServingOptions;
}

/** An answer to send: a JSON-RPC message, or none (202 for a notification), with its HTTP status. */
export interface ModernAnswer {
  readonly status: number;
  readonly body: string | null;
}

/** A request that passed its checks: run it, sending its notifications (progress, logs) as they come. */
export interface ModernWork {
  /** Whether it may send notifications: an HTTP answer to it then goes as a stream. */
  readonly notifies: boolean;
  run(notify: (message: string) => void, signal: AbortSignal): Promise<ModernAnswer>;
}

export interface ModernServing {
  /** The versions `server/discover` lists, and an unsupported version's error. */
  readonly supportedVersions: readonly string[];
  /**
   * Checks a message (and, over HTTP, its headers) and returns its answer, or the work that
   * answers it. Over stdio there are no headers.
   */
  accept(message: unknown, headers?: (name: string) => string | undefined): ModernAnswer | ModernWork;
}

/**
 * Whether a message is of the 2026-07-28 era: it carries the per-request protocol version, asks
 * for `server/discover`, or comes with a 2026 `MCP-Protocol-Version` header. Everything else is
 * a 2025 session's.
 */
export function isModernMessage(message: unknown, headerVersion?: string): boolean {
  if (headerVersion !== undefined && headerVersion >= MODERN_VERSION) return true;
  if (!isRecord(message)) return false;
  if (message.method === 'server/discover') return true;
  const meta = isRecord(message.params) ? message.params._meta : undefined;
  return isRecord(meta) && META.protocolVersion in meta;
}

export function modernServing(
  runtime: ToolRuntime,
  info: McpServerInfo,
  options: ModernOptions = {},
): ModernServing {
  const serving = servingOf(runtime);
  const pageSize = options.pageSize ?? 200;
  // The versions served per request; a 2025 client starts a session with `initialize` instead.
  const supportedVersions = [MODERN_VERSION];
  const cache = { ttlMs: options.cache?.ttlMs ?? 300_000, cacheScope: options.cache?.scope ?? 'public' };
  const resultMeta = { [META.serverInfo]: { name: info.name, version: info.version } };
  const states = requestStateSigner(options.requestState);
  const policies = new Map(
    runtime.list().flatMap((tool) => (tool.task ? [[tool.name, tool.task] as const] : [])),
  );
  // The tasks code loads only for a runtime some of whose tools run as tasks.
  const tasksLoaded: Promise<McpTasks> | undefined =
    policies.size > 0
      ? import('./mcp-tasks.js').then(({ mcpTasks }) => mcpTasks(runtime, policies, options.tasks))
      : undefined;

  // Made once per process: what does not vary per request.
  const discoverText = JSON.stringify({
    resultType: 'complete',
    supportedVersions,
    capabilities: {
      tools: {},
      logging: {},
      ...(tasksLoaded ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
    },
    ...cache,
    _meta: resultMeta,
  });
  const pageTexts = new Map<number, string>();
  const pageText = (start: number): string => {
    let text = pageTexts.get(start);
    if (text === undefined) {
      // The 2025 page with what 2026-07-28 adds to a result.
      text = JSON.stringify({
        resultType: 'complete',
        ...pageOf(serving, pageSize, start),
        ...cache,
        _meta: resultMeta,
      });
      pageTexts.set(start, text);
    }
    return text;
  };
  const complete = (id: Id, result: { readonly _meta?: object }): ModernAnswer => ({
    status: 200,
    body: responseText(
      id,
      JSON.stringify({ resultType: 'complete', ...result, _meta: { ...result._meta, ...resultMeta } }),
    ),
  });

  const callTool = async (
    id: Id,
    params: Record<string, unknown>,
    meta: Record<string, unknown>,
    notify: (message: string) => void,
    signal: AbortSignal,
  ): Promise<ModernAnswer> => {
    const { name, arguments: args = {} } = params;
    if (typeof name !== 'string')
      return errorAnswer(id, ERRORS.invalidParams, 'tools/call needs a tool name');
    const outcome = await askingCall(runtime, states, {
      id,
      name,
      args,
      meta,
      capabilities: capabilitiesOf(meta),
      checkCapabilities: true,
      requestState: params.requestState,
      inputResponses: params.inputResponses,
      notify: (notification) => notify(JSON.stringify({ jsonrpc: '2.0', ...notification })),
      signal,
    });
    if ('invalid' in outcome) return errorAnswer(id, ERRORS.invalidParams, outcome.invalid);
    if ('missing' in outcome) return missingCapability(id, outcome.missing);
    if ('inputRequests' in outcome)
      return { status: 200, body: responseText(id, JSON.stringify({ ...outcome, _meta: resultMeta })) };
    const { result } = outcome;
    if (result.ok) return complete(id, toolResultOf(serving, name, result.value));
    const { protocol } = result.error;
    if (protocol) return { status: 200, body: errorText(id, protocol.code, protocol.message, protocol.data) };
    const failure = errorResultOf(result);
    return failure ? complete(id, failure) : errorAnswer(id, ERRORS.invalidArgument, result.error.message);
  };

  /** -32021: the tool needs a capability the client did not declare (`elicitation`). */
  const missingCapability = (id: Id, capability: string): ModernAnswer => ({
    status: ERRORS.missingCapability.status,
    body: errorText(
      id,
      ERRORS.missingCapability.code,
      `This tool needs the client's ${capability} capability`,
      {
        requiredCapabilities: { [capability]: {} },
      },
    ),
  });
  /** -32021: the client must declare the tasks extension for this. */
  const missingTasks = (id: Id, why: string): ModernAnswer => ({
    status: ERRORS.missingCapability.status,
    body: errorText(id, ERRORS.missingCapability.code, `Missing required client capability: ${why}`, {
      requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    }),
  });
  const unknownTask = (id: Id, taskId: string): ModernAnswer =>
    errorAnswer(
      id,
      ERRORS.invalidArgument,
      `Failed to retrieve task: no task ${JSON.stringify(taskId)} (never created, expired, or another's)`,
    );

  /**
   * A `subscriptions/listen` stream: acknowledged with the task ids this caller holds (toolprep's
   * lists never change, so no list notifications are agreed), then each of their transitions, until
   * the client closes it.
   */
  const listen = async (
    id: Id,
    taskIds: readonly string[],
    header: HeaderReader,
    notify: (message: string) => void,
    signal: AbortSignal,
  ): Promise<ModernAnswer> => {
    const streamMeta = { [META.subscriptionId]: id };
    const send = (method: string, params: Record<string, unknown>) =>
      notify(JSON.stringify({ jsonrpc: '2.0', method, params: { ...params, _meta: streamMeta } }));
    const tasks = await tasksLoaded;
    const subscription =
      tasks && taskIds.length > 0
        ? await tasks.listen(taskIds, await tasks.principalOf(header), (task) =>
            send('notifications/tasks', task),
          )
        : undefined;
    send('notifications/subscriptions/acknowledged', {
      notifications: subscription ? { taskIds: subscription.agreed } : {},
    });
    await new Promise((resolve) => {
      if (signal.aborted) resolve(undefined);
      signal.addEventListener('abort', resolve, { once: true });
    });
    await subscription?.stop();
    return complete(id, { _meta: streamMeta });
  };

  return {
    supportedVersions,
    accept(message, header) {
      if (!isRecord(message) || message.jsonrpc !== '2.0' || typeof message.method !== 'string')
        return errorAnswer(null, ERRORS.invalidRequest, 'Invalid Request: expected one JSON-RPC request');
      const { method } = message;
      const params = message.params === undefined ? {} : message.params;
      if (!isRecord(params))
        return errorAnswer(idOf(message), ERRORS.invalidRequest, 'Invalid Request: params must be an object');
      // Notifications need no answer: cancellation is the transport's (a closed stream, or stdio's reader).
      if (!('id' in message)) return { status: 202, body: null };
      const id = idOf(message);
      if (id === null)
        return errorAnswer(
          null,
          ERRORS.invalidRequest,
          'Invalid Request: the id must be a string or a number',
        );

      if (header) {
        const mismatch =
          headerMismatch(method, params, header) ??
          (method === 'tools/call' && typeof params.name === 'string'
            ? mirroredMismatch(serving.mirrored.get(params.name), params.arguments, header)
            : undefined);
        if (mismatch) return errorAnswer(id, ERRORS.headerMismatch, `Header mismatch: ${mismatch}`);
      }
      const meta = params._meta;
      if (!isRecord(meta))
        return errorAnswer(
          id,
          ERRORS.invalidParams,
          `Invalid params: _meta must carry ${META.protocolVersion} and ${META.clientCapabilities}`,
        );
      const version = meta[META.protocolVersion];
      if (typeof version !== 'string')
        return errorAnswer(
          id,
          ERRORS.invalidParams,
          `Invalid params: _meta must carry ${META.protocolVersion}`,
        );
      if (!isRecord(meta[META.clientCapabilities]))
        return errorAnswer(
          id,
          ERRORS.invalidParams,
          `Invalid params: _meta must carry ${META.clientCapabilities}`,
        );
      if (header && header('mcp-protocol-version')?.trim() !== version)
        return errorAnswer(
          id,
          ERRORS.headerMismatch,
          `Header mismatch: MCP-Protocol-Version is not ${version}, as _meta says`,
        );
      if (version !== MODERN_VERSION)
        return {
          status: ERRORS.unsupportedVersion.status,
          body: errorText(id, ERRORS.unsupportedVersion.code, 'Unsupported protocol version', {
            supported: supportedVersions,
            requested: version,
          }),
        };
      const logLevel = meta[META.logLevel];
      if (logLevel !== undefined && !LOGGING_LEVELS.includes(logLevel as LoggingLevel))
        return errorAnswer(
          id,
          ERRORS.invalidParams,
          `Invalid params: ${META.logLevel} must be one of ${LOGGING_LEVELS.join(', ')}`,
        );

      if (method === 'server/discover') return { status: 200, body: responseText(id, discoverText) };
      if (method === 'tools/list') {
        const { cursor } = params;
        const start =
          cursor === undefined || typeof cursor === 'string' ? startOf(serving, cursor) : undefined;
        if (start === undefined)
          return errorAnswer(
            id,
            ERRORS.invalidArgument,
            `Invalid cursor ${JSON.stringify(cursor)}: pass the nextCursor of the previous page`,
          );
        return { status: 200, body: responseText(id, pageText(start)) };
      }
      const policy =
        method === 'tools/call' && typeof params.name === 'string' ? policies.get(params.name) : undefined;
      if (policy && tasksLoaded) {
        const declared = declaresTasks(meta);
        if (policy.support === 'required' && !declared)
          return missingTasks(id, `Tool "${params.name}" runs only as a task`);
        if (declared)
          return {
            notifies: false,
            run: async () => {
              const name = params.name as string;
              const args = params.arguments ?? {};
              // Questions asked before the task is made come back with the retry, as any input-required round.
              const call: BoundCall = { method: 'tools/call', name, args };
              const gathered = await gatherAnswers(states, call, params.requestState, params.inputResponses);
              if ('invalid' in gathered) return errorAnswer(id, ERRORS.invalidParams, gathered.invalid);
              const tasks = await tasksLoaded;
              const outcome = await tasks.create({
                name,
                args,
                capabilities: capabilitiesOf(meta),
                principal: await tasks.principalOf(header),
                answers: gathered.answers,
              });
              if ('unknownTool' in outcome)
                return errorAnswer(id, ERRORS.invalidArgument, outcome.unknownTool);
              if ('result' in outcome) return complete(id, outcome.result);
              if ('missing' in outcome) return missingCapability(id, outcome.missing);
              if ('questions' in outcome) {
                const asked = {
                  resultType: 'input_required',
                  inputRequests: outcome.questions,
                  requestState: await states.sign(call, gathered.answers),
                  _meta: resultMeta,
                };
                return { status: 200, body: responseText(id, JSON.stringify(asked)) };
              }
              return {
                status: 200,
                body: responseText(
                  id,
                  JSON.stringify({ resultType: 'task', ...outcome.task, _meta: resultMeta }),
                ),
              };
            },
          };
      }
      if (TASK_METHODS.includes(method)) {
        if (!tasksLoaded)
          return errorAnswer(
            id,
            ERRORS.methodNotFound,
            `Method not found: ${method} (no tool runs as a task)`,
          );
        if (!declaresTasks(meta)) return missingTasks(id, `${method} is a method of the tasks extension`);
        const { taskId } = params;
        if (typeof taskId !== 'string')
          return errorAnswer(id, ERRORS.invalidParams, `${method} needs a taskId`);
        if (method === 'tasks/update' && !isRecord(params.inputResponses))
          return errorAnswer(
            id,
            ERRORS.invalidParams,
            'tasks/update needs inputResponses, an object keyed by input request',
          );
        return {
          notifies: false,
          run: async () => {
            const tasks = await tasksLoaded;
            const principal = await tasks.principalOf(header);
            if (method === 'tasks/get') {
              const task = await tasks.get(taskId, principal);
              return task ? complete(id, task) : unknownTask(id, taskId);
            }
            const found =
              method === 'tasks/cancel'
                ? await tasks.cancel(taskId, principal)
                : await tasks.update(taskId, principal, params.inputResponses as Record<string, unknown>);
            return found ? complete(id, {}) : unknownTask(id, taskId);
          },
        };
      }
      if (method === 'subscriptions/listen' && tasksLoaded) {
        const { notifications } = params;
        if (!isRecord(notifications))
          return errorAnswer(
            id,
            ERRORS.invalidParams,
            'subscriptions/listen needs notifications, the filter of what to send',
          );
        const { taskIds } = notifications;
        if (
          taskIds !== undefined &&
          !(Array.isArray(taskIds) && taskIds.every((taskId) => typeof taskId === 'string'))
        )
          return errorAnswer(id, ERRORS.invalidParams, 'notifications.taskIds must be a list of task ids');
        if (taskIds !== undefined && !declaresTasks(meta))
          return missingTasks(id, 'Task notifications are part of the tasks extension');
        return {
          notifies: true,
          run: (notify, signal) =>
            listen(id, (taskIds as string[] | undefined) ?? [], header, notify, signal),
        };
      }
      if (method === 'tools/call')
        return {
          notifies: meta.progressToken !== undefined || logLevel !== undefined,
          run: (notify, signal) => callTool(id, params, meta, notify, signal),
        };
      return errorAnswer(id, ERRORS.methodNotFound, `Method not found: ${method}`);
    },
  };
}

type Id = string | number;

/** A notification about the request being answered (progress, a log message). */
export interface RequestNotification {
  readonly method: string;
  readonly params: unknown;
}

export interface AskingCallRequest {
  readonly id: Id;
  readonly name: string;
  readonly args: unknown;
  /** The request's `_meta`, with its envelope keys: the progress token and log level are read there. */
  readonly meta: Record<string, unknown>;
  /** What the client declared it can do, in this request. */
  readonly capabilities: Record<string, unknown>;
  /**
   * Whether a question the capabilities do not cover ends the call with `-32021` here (toolprep's
   * own serving), or is left to the SDK to refuse (SDK v2).
   */
  readonly checkCapabilities: boolean;
  readonly requestState: unknown;
  readonly inputResponses: unknown;
  readonly notify: (notification: RequestNotification) => void;
  readonly signal: AbortSignal;
}

export type AskingCallOutcome =
  | { readonly result: CallResult }
  | {
      readonly resultType: 'input_required';
      readonly inputRequests: Record<string, unknown>;
      readonly requestState: string;
    }
  | { readonly missing: string }
  | { readonly invalid: string };

/**
 * A 2026-07-28 call, which may ask the client for input: the answers so far come from the signed
 * `requestState` and the retry's `inputResponses`; a question not answered yet ends the run with
 * the input-required result to send, and its signed state.
 */
export async function askingCall(
  runtime: ToolRuntime,
  states: RequestStateSigner,
  request: AskingCallRequest,
): Promise<AskingCallOutcome> {
  const call: BoundCall = { method: 'tools/call', name: request.name, args: request.args };
  const gathered = await gatherAnswers(states, call, request.requestState, request.inputResponses);
  if ('invalid' in gathered) return gathered;
  const { answers } = gathered;
  const round = inputRound(answers, request.checkCapabilities ? request.capabilities : undefined);
  const context = modernContext(request, round);
  const outcome = await Promise.race([
    runtime.call(request.name, request.args, context).then((result) => ({ result })),
    round.suspended,
  ]);
  if (!('inputRequests' in outcome)) return outcome;
  return {
    resultType: 'input_required',
    inputRequests: outcome.inputRequests,
    requestState: await states.sign(call, answers),
  };
}

/**
 * The answers a retried call carries: those its signed `requestState` holds (answered in earlier
 * rounds), and its `inputResponses`; or why they are refused.
 */
async function gatherAnswers(
  states: RequestStateSigner,
  call: BoundCall,
  requestState: unknown,
  inputResponses: unknown,
): Promise<{ readonly answers: Record<string, unknown> } | { readonly invalid: string }> {
  let answers: Record<string, unknown> = {};
  if (requestState !== undefined) {
    if (typeof requestState !== 'string')
      return { invalid: 'requestState must be the string the server sent' };
    const verified = await states.verify(call, requestState);
    if ('refused' in verified) return { invalid: `requestState refused: ${verified.refused}` };
    answers = verified.answers;
  }
  if (inputResponses !== undefined) {
    if (!isRecord(inputResponses))
      return { invalid: 'inputResponses must be an object keyed by input request' };
    answers = { ...answers, ...inputResponses };
  }
  return { answers };
}

function idOf(message: Record<string, unknown>): Id | null {
  const { id } = message;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/** Where the `Mcp-Method` and `Mcp-Name` headers disagree with the body, or undefined. */
function headerMismatch(
  method: string,
  params: Record<string, unknown>,
  header: (name: string) => string | undefined,
): string | undefined {
  const sentMethod = header('mcp-method')?.trim();
  if (sentMethod !== method)
    return sentMethod === undefined
      ? 'the Mcp-Method header is missing'
      : `Mcp-Method "${sentMethod}" is not the body's "${method}"`;
  const named =
    method === 'resources/read'
      ? params.uri
      : TASK_METHODS.includes(method)
        ? params.taskId
        : method === 'tools/call' || method === 'prompts/get'
          ? params.name
          : undefined;
  if (named === undefined) return undefined;
  const sentName = header('mcp-name');
  if (sentName === undefined) return 'the Mcp-Name header is missing';
  const decoded = decodeHeaderValue(sentName.trim());
  if (decoded === undefined) return 'Mcp-Name is not valid base64 inside =?base64?…?=';
  return decoded === named ? undefined : `Mcp-Name "${decoded}" is not the body's "${String(named)}"`;
}

/**
 * Where the `Mcp-Param-*` headers disagree with the arguments they mirror, or undefined: each
 * argument present (and not null) must come with its header, equal once decoded (an integer by
 * value), and an absent one with none.
 */
export function mirroredMismatch(
  headers: readonly McpHeader[] | undefined,
  args: unknown,
  header: (name: string) => string | undefined,
): string | undefined {
  for (const { path, header: name, type } of headers ?? []) {
    let value: unknown = args;
    for (const step of path) value = isRecord(value) && Object.hasOwn(value, step) ? value[step] : undefined;
    const sent = header(`mcp-param-${name.toLowerCase()}`);
    if (value === undefined || value === null) {
      if (sent !== undefined) return `Mcp-Param-${name} is sent, but ${path.join('.')} is not`;
      continue;
    }
    if (sent === undefined) return `the Mcp-Param-${name} header is missing for ${path.join('.')}`;
    const decoded = decodeHeaderValue(sent.trim());
    if (decoded === undefined) return `Mcp-Param-${name} is not valid base64 inside =?base64?…?=`;
    const equal =
      type === 'integer'
        ? decoded.trim() !== '' && Number(decoded) === Number(value)
        : decoded === String(value);
    if (!equal) return `Mcp-Param-${name} "${decoded}" is not the body's ${JSON.stringify(value)}`;
  }
  return undefined;
}

/** A header value as sent: plain, or `=?base64?…?=` for what plain ASCII cannot carry. */
export function decodeHeaderValue(value: string): string | undefined {
  if (!value.startsWith('=?base64?') || !value.endsWith('?=') || value.length < 11) return value;
  const encoded = value.slice(9, -2);
  // Strict: atob forgives missing padding, which the specification refuses.
  if (encoded.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) return undefined;
  try {
    const binary = atob(encoded);
    return new TextDecoder('utf-8', { fatal: true }).decode(
      Uint8Array.from(binary, (character) => character.charCodeAt(0)),
    );
  } catch {
    return undefined;
  }
}

function capabilitiesOf(meta: Record<string, unknown>): Record<string, unknown> {
  return meta[META.clientCapabilities] as Record<string, unknown>;
}

/** How a call ended without a result: it asked for input, or for a capability the client lacks. */
type Suspension = { inputRequests: Record<string, unknown> } | { missing: string };

interface InputRound extends QuestionAsker {
  readonly suspended: Promise<Suspension>;
}

/**
 * The questions of one run of a handler. A handler asks in order, and each question is keyed by
 * its place in that order (`input-1`, `input-2`…): one answered in an earlier round is answered
 * at once; the first that is not suspends the call (after every question asked at the same time
 * has been gathered), and the call's answer is the input-required result. The suspended run is
 * left behind: its promise never settles, and nothing holds it.
 */
function inputRound(
  answers: Readonly<Record<string, unknown>>,
  capabilities: Record<string, unknown> | undefined,
): InputRound {
  let asked = 0;
  const pending: Record<string, unknown> = {};
  let suspend: ((suspension: Suspension) => void) | undefined;
  let scheduled = false;
  const suspended = new Promise<Suspension>((resolve) => {
    suspend = resolve;
  });
  const never = new Promise<never>(() => {});
  return {
    suspended,
    ask(method, capability, params, named) {
      asked++;
      const key = named ?? `input-${asked}`;
      // An answer that is not one to this question (a number for an elicitation) is asked again.
      if (Object.hasOwn(answers, key) && isAnswerTo(method, answers[key]))
        return Promise.resolve(answers[key]);
      if (
        capabilities &&
        (!isRecord(capabilities[capability]) || !supportsMode(method, capabilities, params))
      ) {
        suspend?.({ missing: capability });
        return never;
      }
      pending[key] = params === undefined ? { method } : { method, params };
      if (!scheduled) {
        scheduled = true;
        // Questions asked together (Promise.all) go in one result.
        setTimeout(() => suspend?.({ inputRequests: pending }), 0);
      }
      return never;
    },
  };
}

function responseText(id: Id, result: string): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`;
}

function errorText(id: Id | null, code: number, message: string, data?: unknown): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    error: { code, message, ...(data === undefined ? {} : { data }) },
  });
}

function errorAnswer(id: Id | null, error: { code: number; status: number }, message: string): ModernAnswer {
  return { status: error.status, body: errorText(id, error.code, message) };
}

/** The methods of the tasks extension whose `Mcp-Name` is the task id. */
export const TASK_METHODS: readonly string[] = ['tasks/get', 'tasks/update', 'tasks/cancel'];

/** Whether the request's capabilities declare the tasks extension. */
function declaresTasks(meta: Record<string, unknown>): boolean {
  const { extensions } = capabilitiesOf(meta);
  return isRecord(extensions) && isRecord(extensions[TASKS_EXTENSION]);
}
