import type { ToolRuntime } from '../../../runtime/runner.js';
import { isRecord } from '../../../shared/run/is-record.js';
import { logError } from '../../../shared/run/on-error.js';
import { LOGGING_LEVELS, type LoggingLevel } from '../service/context.js';
import { requestStateSigner } from '../service/request-state.js';
import { type McpServerInfo, toolServiceOf } from '../service/tool-service.js';
import { capabilitiesOf, headerMismatch, META, MODERN_VERSION } from '../wire/envelope.js';
import { ERRORS, errorAnswer, errorText, idOf, responseText, type WireAnswer } from '../wire/jsonrpc.js';
import { installGroupMethods } from './group-methods.js';
import type { Asker, MethodTable, ModernOptions, ModernWork, ServingKit } from './method-table.js';
import { installTaskMethods } from './task-methods.js';
import { installToolMethods } from './tool-methods.js';
import { installViewMethods } from './view-methods.js';

/**
 * MCP 2026-07-28, the stateless revision, served by toolprep itself: every request carries its
 * protocol version and client capabilities, so each is answered on its own, with nothing kept
 * between requests. The envelope is checked here, once, for every method; each method is a row of
 * a table, into which the tools and each extension (tasks, groups, views) install their rows. No SDK is loaded,
 * and nothing of Node: the stdio reader, the Node HTTP handler and the fetch handler all use it.
 */

export interface ModernServing {
  /** Whether a feature server given by the user (`modernFeatures`) answers this method instead. */
  yields(method: unknown): boolean;
  /**
   * Checks a message (and, over HTTP, its headers) and returns its answer, or the work that
   * answers it. Over stdio there are no headers. Over HTTP with `auth`, `asker` is the verified
   * caller and the view of the tools it may see (default: every tool, no caller).
   */
  accept(
    message: unknown,
    header?: (name: string) => string | undefined,
    asker?: Asker,
  ): WireAnswer | ModernWork;
}

export function modernServing(
  runtime: ToolRuntime,
  info: McpServerInfo,
  options: ModernOptions = {},
): ModernServing {
  // The versions served per request; a 2025 client starts a session with `initialize` instead.
  const supportedVersions = [MODERN_VERSION];
  const resultMeta = { [META.serverInfo]: { name: info.name, version: info.version } };
  const kit: ServingKit = {
    runtime,
    service: toolServiceOf(runtime),
    options,
    states: requestStateSigner(options.requestState),
    onerror: options.onerror ?? logError,
    cache: { ttlMs: options.cache?.ttlMs ?? 300_000, cacheScope: options.cache?.scope ?? 'public' },
    resultMeta,
    capabilities: { tools: {}, logging: {} },
    complete: (id, result) => ({
      status: 200,
      body: responseText(
        id,
        JSON.stringify({ resultType: 'complete', ...result, _meta: { ...result._meta, ...resultMeta } }),
      ),
    }),
    resultOf: (id, resultType, result) => ({
      status: 200,
      body: responseText(id, JSON.stringify({ resultType, ...result, _meta: resultMeta })),
    }),
    callError: (id, error) => ({ status: 200, body: errorText(id, error) }),
  };
  const everyone: Asker = { view: runtime };
  const table: MethodTable = new Map();
  installToolMethods(table, kit, supportedVersions);
  installTaskMethods(table, kit);
  installGroupMethods(table, kit);
  installViewMethods(table, kit);

  return {
    yields: (method) => typeof method !== 'string' || table.get(method)?.alwaysOurs !== true,
    accept(message, header, asker = everyone) {
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
      const row = table.get(method);
      if (header) {
        const mismatch =
          headerMismatch(method, params, header) ?? row?.headerMismatch?.(params, header, asker.view);
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
        return errorAnswer(id, ERRORS.unsupportedVersion, 'Unsupported protocol version', {
          supported: supportedVersions,
          requested: version,
        });
      const logLevel = meta[META.logLevel];
      if (logLevel !== undefined && !LOGGING_LEVELS.includes(logLevel as LoggingLevel))
        return errorAnswer(
          id,
          ERRORS.invalidParams,
          `Invalid params: ${META.logLevel} must be one of ${LOGGING_LEVELS.join(', ')}`,
        );
      if (!row) return errorAnswer(id, ERRORS.methodNotFound, `Method not found: ${method}`);
      return row.answer({ id, method, params, meta, capabilities: capabilitiesOf(meta), header, ...asker });
    },
  };
}
