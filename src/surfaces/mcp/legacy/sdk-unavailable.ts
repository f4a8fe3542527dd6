import { isRecord } from '../../../shared/run/is-record.js';
import type { OnError } from '../../../shared/run/on-error.js';
import { MODERN_VERSION } from '../wire/envelope.js';
import { ERRORS, errorText, type Id, idOf, type WireAnswer } from '../wire/jsonrpc.js';

/**
 * 2025 sessions are served with the MCP SDK v1, an optional peer: a server installed without it
 * serves 2026-07-28 alone (decision 0043). Whether it is there is learned by loading it, when a
 * 2025 message first needs it, never guessed from a path; a 2025 client is then refused with an
 * answer that names the package to install, and the server logs why, once.
 */

const SDK_PACKAGE = '@modelcontextprotocol/sdk';
const INSTALL = `npm install ${SDK_PACKAGE}`;

/** The SDK could not be loaded: not installed (`installed` false), or it failed as it loaded. */
export class SdkUnavailableError extends Error {
  readonly installed: boolean;

  constructor(thrown: unknown) {
    const installed = !isNotInstalled(thrown);
    super(
      installed
        ? `[toolprep] MCP 2025 sessions are served with ${SDK_PACKAGE}, which could not be loaded: ${
            thrown instanceof Error ? thrown.message : String(thrown)
          }. 2025 clients are refused; 2026-07-28 clients are served.`
        : `[toolprep] MCP 2025 sessions are served with ${SDK_PACKAGE}, which is not installed: 2025 clients are refused; 2026-07-28 clients are served. To serve both: ${INSTALL}`,
      { cause: thrown },
    );
    this.installed = installed;
  }

  /** Why a 2025 client is refused, as it is told: never the server's paths. */
  get refusedBecause(): string {
    return this.installed
      ? `${SDK_PACKAGE}, which serves 2025 sessions, could not be loaded on this server (its log says why)`
      : `2025 sessions need ${SDK_PACKAGE} on the server, which is not installed there (${INSTALL})`;
  }
}

/**
 * The handler was made without the 2025 exchange, so that the SDK stays out of its bundle
 * (`toolprep/mcp/fetch`, decision 0064): nothing failed, and the log says which handler serves both.
 */
export class SdkLeftOutError extends SdkUnavailableError {
  constructor() {
    super(undefined);
    this.message = `[toolprep] this handler (createMcpFetchHandler from toolprep/mcp/fetch) serves MCP ${MODERN_VERSION} alone, without ${SDK_PACKAGE}: 2025 clients are refused. To serve both, make it with createMcpFetchHandler from toolprep/mcp/web, which bundles ${SDK_PACKAGE}`;
  }

  override get refusedBecause(): string {
    return `this server's handler leaves out 2025 sessions, which need ${SDK_PACKAGE}`;
  }
}

/** Runs `load`, a failure becoming an `SdkUnavailableError`. */
export async function loadSdk<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw error instanceof SdkUnavailableError ? error : new SdkUnavailableError(error);
  }
}

/**
 * Whether a failed import says that the SDK itself is not installed, as Node and Bun word it
 * (`Cannot find package '@modelcontextprotocol/sdk' imported from …`), Deno (`Import
 * "@modelcontextprotocol/sdk/…" not a dependency`) and `require` in a CommonJS bundle (`Cannot find
 * module '…'`, `MODULE_NOT_FOUND`). A missing package that the SDK needs is named instead, its path
 * unquoted after `imported from`: that is a load failure.
 */
function isNotInstalled(thrown: unknown): boolean {
  const { code, message } = (thrown ?? {}) as { code?: unknown; message?: unknown };
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    SDK_SPECIFIER.test(message)
  );
}

/** The SDK, or a module of it, quoted as the specifier that was not found. */
const SDK_SPECIFIER = /(['"])@modelcontextprotocol\/sdk(?:\/[^'"]*)?\1/;

/** The refusal of one 2025 message, with the id it answers (null: the message was no request). */
export interface SessionRefusal extends WireAnswer {
  readonly body: string;
  readonly id: Id | null;
}

/**
 * The answer to a 2025 message when the SDK is unavailable: `-32022` (unsupported protocol
 * version), as toolprep's 2026-07-28 serving refuses a version it does not serve, naming the
 * package and never the server's paths. Over HTTP it goes with 400; over stdio only a request
 * (`id` not null) is answered.
 */
export function sessionRefusal(message: unknown, unavailable: SdkUnavailableError): SessionRefusal {
  const request = isRecord(message) && typeof message.method === 'string' ? message : undefined;
  const id = request ? idOf(request) : null;
  const params = request && isRecord(request.params) ? request.params : undefined;
  const requested =
    request?.method === 'initialize' && typeof params?.protocolVersion === 'string'
      ? params.protocolVersion
      : undefined;
  return {
    status: ERRORS.unsupportedVersion.status,
    id,
    body: errorText(id, {
      code: ERRORS.unsupportedVersion.code,
      message: `Unsupported protocol version: this server serves MCP ${MODERN_VERSION} only; ${unavailable.refusedBecause}`,
      data: { supported: [MODERN_VERSION], ...(requested === undefined ? {} : { requested }) },
    }),
  };
}

/** `sessionRefusal` that reports the unavailable SDK to `onerror` the first time it refuses. */
export function sessionRefusals(
  onerror: OnError,
): (message: unknown, unavailable: SdkUnavailableError) => SessionRefusal {
  let reported = false;
  return (message, unavailable) => {
    if (!reported) onerror(unavailable);
    reported = true;
    return sessionRefusal(message, unavailable);
  };
}
