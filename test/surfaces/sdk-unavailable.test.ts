import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { REPO } from '../../scripts/packages.mjs';
import {
  SdkUnavailableError,
  sessionRefusal,
  sessionRefusals,
} from '../../src/surfaces/mcp/legacy/sdk-unavailable.js';

/**
 * What a 2025 client is answered, and what the server is told, when the MCP SDK cannot serve
 * 2025 sessions (decision 0043); the packed project without the SDK is
 * test/package/without-the-sdk.test.ts. The import failures are real: each runtime imports the
 * SDK from a folder that does not have it, and says so in its own words.
 */

const INSTALL = 'npm install @modelcontextprotocol/sdk';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'toolprep-sdk-unavailable-'));
  mkdirSync(path.join(dir, 'elsewhere'));
  // For a package the SDK needs that is missing: the error names it, from inside the SDK's folder.
  mkdirSync(path.join(dir, 'inside/node_modules/@modelcontextprotocol/sdk'), { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * What `command` throws importing `specifier` from `file` in the temporary folder: a `.cjs` file
 * requires it, as a CommonJS bundle does.
 */
function importFailure(command: readonly string[], specifier: string, file: string): Error {
  const script = path.join(dir, file);
  const report = '(error) => console.log(JSON.stringify({ code: error.code, message: error.message }))';
  writeFileSync(
    script,
    file.endsWith('.cjs')
      ? `try { require(${JSON.stringify(specifier)}) } catch (error) { (${report})(error) }\n`
      : `await import(${JSON.stringify(specifier)}).catch(${report});\n`,
  );
  const [executable, ...args] = command as [string, ...string[]];
  const { stdout } = spawnSync(executable, [...args, script], { cwd: dir, encoding: 'utf8' });
  const { code, message } = JSON.parse(stdout) as { code: string; message: string };
  return Object.assign(new Error(message), { code });
}

const NODE = [process.execPath];
// No auto-install: Bun would fetch a package that a folder without node_modules imports.
const BUN = [path.join(REPO, 'node_modules/.bin/bun'), '--no-install'];
const DENO = [path.join(REPO, 'node_modules/.bin/deno'), 'run', '--allow-read'];

describe('whether the SDK is installed, from what the import threw', () => {
  const ELSEWHERE = 'elsewhere/probe.mjs';
  const INSIDE_THE_SDK = 'inside/node_modules/@modelcontextprotocol/sdk/probe.mjs';
  test.each([
    ['Node, a module of the SDK', NODE, '@modelcontextprotocol/sdk/server/stdio.js', ELSEWHERE, false],
    ['Node, the SDK itself', NODE, '@modelcontextprotocol/sdk', ELSEWHERE, false],
    ['Bun', BUN, '@modelcontextprotocol/sdk/server/stdio.js', ELSEWHERE, false],
    ['Deno', DENO, '@modelcontextprotocol/sdk/server/stdio.js', ELSEWHERE, false],
    [
      'require, in a CommonJS bundle',
      NODE,
      '@modelcontextprotocol/sdk/server/stdio.js',
      'elsewhere/probe.cjs',
      false,
    ],
    ['a package the SDK needs, missing (Node)', NODE, 'zod-is-not-here', INSIDE_THE_SDK, true],
    ['a package the SDK needs, missing (Bun)', BUN, 'zod-is-not-here', INSIDE_THE_SDK, true],
  ] as const)('%s', (_, command, specifier, file, installed) => {
    const thrown = importFailure(command, specifier, file);
    expect(thrown.message).toContain(specifier.split('/server')[0]);
    expect(new SdkUnavailableError(thrown).installed).toBe(installed);
  });

  test('an SDK that threw as it loaded', () => {
    expect(new SdkUnavailableError(new TypeError('Cannot read properties of undefined')).installed).toBe(
      true,
    );
  });
});

describe('the refusal of a 2025 message', () => {
  const missing = new SdkUnavailableError(
    Object.assign(new Error(`Cannot find package '@modelcontextprotocol/sdk' imported from ${REPO}/x.js`), {
      code: 'ERR_MODULE_NOT_FOUND',
    }),
  );
  const broken = new SdkUnavailableError(
    new TypeError(`${REPO}/node_modules/zod/index.js is not a function`),
  );
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
  };

  test.each([
    ['an initialize', initialize, missing, 1, { supported: ['2026-07-28'], requested: '2025-06-18' }],
    [
      'a request with a string id',
      { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
      missing,
      'a',
      { supported: ['2026-07-28'] },
    ],
    [
      'a notification',
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      missing,
      null,
      { supported: ['2026-07-28'] },
    ],
    ['a batch', [initialize], missing, null, { supported: ['2026-07-28'] }],
    ['what is not JSON', undefined, missing, null, { supported: ['2026-07-28'] }],
    [
      'an initialize, the SDK broken',
      initialize,
      broken,
      1,
      { supported: ['2026-07-28'], requested: '2025-06-18' },
    ],
  ] as const)('%s', (_, message, unavailable, id, data) => {
    const refused = sessionRefusal(message, unavailable);
    expect(refused.status).toBe(400);
    expect(refused.id).toBe(id);
    const { error } = JSON.parse(refused.body) as { error: { code: number; message: string; data: unknown } };
    expect(error.code).toBe(-32022);
    expect(error.data).toEqual(data);
    expect(error.message).toMatch(/^Unsupported protocol version: this server serves MCP 2026-07-28 only; /);
    expect(error.message).toContain('@modelcontextprotocol/sdk');
    // What the server's paths or the thrown error say stays on the server.
    expect(refused.body).not.toContain(REPO);
    expect(error.message.includes(INSTALL)).toBe(unavailable === missing);
  });

  test('the server is told once, with the cause; a missing SDK with what to install', () => {
    const told: Error[] = [];
    const refuse = sessionRefusals((error) => told.push(error));
    for (const id of [1, 2, 3]) expect(refuse({ ...initialize, id }, missing).id).toBe(id);
    expect(told).toEqual([missing]);
    expect(missing.message).toBe(
      `[toolprep] MCP 2025 sessions are served with @modelcontextprotocol/sdk, which is not installed: 2025 clients are refused; 2026-07-28 clients are served. To serve both: ${INSTALL}`,
    );
    expect(broken.message).toContain('which could not be loaded: ');
    expect(broken.cause).toBeInstanceOf(TypeError);
  });
});
