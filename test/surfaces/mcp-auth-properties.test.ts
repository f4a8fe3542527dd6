import fc from 'fast-check';
import { createMcpHttpHandler } from 'toolprep/mcp';
import { createMcpFetchHandler } from 'toolprep/mcp/web';
import { describe, expect, test } from 'vitest';
import { runtime, toolSet } from '../support/grouped-notes.js';
import { propertyRuns } from '../support/property-runs.js';

/**
 * `auth` with 2025 sessions and the groups draft (decision 0060), as properties over any callers,
 * through the fetch handler with a verifier of the test's own: a session answers only a caller
 * with its opener's subject and view, and the groups draft's answers name the caller's tools and
 * groups only. The official clients against a real issuer: mcp-auth-sessions.test.ts.
 */

const VERSION = '2026-07-28';
const GROUPS = 'io.modelcontextprotocol/groups';
const info = { name: 'notes', version: '1.0.0' };
const names = (tools: readonly { name: string }[]) => tools.map((tool) => tool.name).sort();

describe('properties: whatever the scopes, each caller is kept to its own tools', () => {
  // Tokens a verifier of the test's own reads: `subject~scope+scope`.
  const handle = createMcpFetchHandler(runtime, info, {
    auth: {
      verify: async (token) => {
        const [subject = '', scopes = ''] = token.split('~');
        return { subject, scopes: scopes.split('+').filter(Boolean) };
      },
      resourceMetadata: { resource: 'http://localhost/mcp', authorizationServers: ['http://localhost'] },
    },
    sessions: true,
    responses: 'json',
  });
  const ask = async (token: string, body: object, headers: Record<string, string> = {}) => {
    const response = await handle(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
          ...headers,
        },
        body: JSON.stringify(body),
      }),
    );
    return {
      status: response.status,
      session: response.headers.get('mcp-session-id'),
      text: await response.text(),
    };
  };
  // `extra:junk` is asked for by no tool: it must change nothing.
  const caller = fc.record({
    subject: fc.constantFrom('ann', 'bob'),
    scopes: fc.subarray(['notes:read', 'notes:write', 'extra:junk']),
  });
  const tokenOf = ({ subject, scopes }: { subject: string; scopes: string[] }) =>
    `${subject}~${scopes.join('+')}`;
  const keyOf = (scopes: string[]) =>
    scopes
      .filter((scope) => scope !== 'extra:junk')
      .sort()
      .join(' ');
  const sees = (scopes: string[]) =>
    toolSet.prepared.filter((tool) => (tool.access?.scopes ?? []).every((scope) => scopes.includes(scope)));

  test('a session answers the caller that opened it, and only a caller with its subject and view', async () => {
    await fc.assert(
      fc.asyncProperty(caller, caller, async (opener, other) => {
        const initialize = {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: info },
        };
        const opened = await ask(tokenOf(opener), initialize);
        const session = opened.session as string;
        expect(session).toMatch(/^[0-9a-f-]{36}$/);
        const onSession = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
        await ask(tokenOf(opener), { jsonrpc: '2.0', method: 'notifications/initialized' }, onSession);
        const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
        const asked = await ask(tokenOf(other), list, onSession);
        if (other.subject === opener.subject && keyOf(other.scopes) === keyOf(opener.scopes)) {
          expect(asked.status).toBe(200);
          expect(names(JSON.parse(asked.text).result.tools)).toEqual(names(sees(opener.scopes)));
        } else {
          const unknown = await ask(tokenOf(other), list, {
            ...onSession,
            'mcp-session-id': crypto.randomUUID(),
          });
          expect(asked).toEqual({ ...unknown, session: null });
          expect(unknown.status).toBe(404);
        }
        await handle(
          new Request('http://localhost/mcp', {
            method: 'DELETE',
            headers: { ...onSession, authorization: `Bearer ${tokenOf(opener)}` },
          }),
        );
      }),
      { numRuns: propertyRuns(40) },
    );
  });

  test("the groups draft's answers name the caller's tools and groups only", async () => {
    await fc.assert(
      fc.asyncProperty(caller, async (who) => {
        const token = tokenOf(who);
        const seen = sees(who.scopes);
        const hidden = toolSet.prepared.filter((tool) => !seen.includes(tool));
        const deferred = seen.filter((tool) => tool.loading === 'deferred');
        const offered = (toolSet.groups ?? [])
          .map(({ name }) => name)
          .filter((name) => deferred.some((tool) => tool.groups?.includes(name)));
        const request = (method: string, params: object = {}) => ({
          jsonrpc: '2.0',
          id: 1,
          method,
          params: {
            ...params,
            _meta: {
              'io.modelcontextprotocol/protocolVersion': VERSION,
              'io.modelcontextprotocol/clientCapabilities': { extensions: { [GROUPS]: {} } },
            },
          },
        });
        const modernAsk = (method: string, params: object = {}) =>
          ask(token, request(method, params), {
            'mcp-protocol-version': VERSION,
            'mcp-method': method,
            ...('name' in params ? { 'mcp-name': String(params.name) } : {}),
          });
        const topLevel = await modernAsk('tools/list');
        expect(names(JSON.parse(topLevel.text).result.tools)).toEqual(
          names(seen.filter((tool) => tool.loading !== 'deferred')),
        );
        const listed = await modernAsk('groups/list');
        expect(JSON.parse(listed.text).result.groups.map((group: { name: string }) => group.name)).toEqual(
          offered,
        );
        const texts = [topLevel.text, listed.text];
        for (const { name } of toolSet.groups ?? []) {
          const got = await modernAsk('groups/get', { name });
          const answer = JSON.parse(got.text);
          if (offered.includes(name))
            expect(names(answer.result.contents.tools)).toEqual(
              names(deferred.filter((tool) => tool.groups?.includes(name))),
            );
          else expect(answer.error.message).toBe(`Unknown group "${name}". Groups: ${offered.join(', ')}.`);
          texts.push(got.text.replace(`Unknown group \\"${name}\\"`, ''));
        }
        for (const tool of hidden) for (const text of texts) expect(text).not.toContain(tool.name);
      }),
      { numRuns: propertyRuns(40) },
    );
  });
});

test('a server of yours with auth is refused at start, saying what to do instead', () => {
  expect(() =>
    createMcpHttpHandler(runtime, info, {
      auth: {
        issuer: 'https://auth.example.com',
        resourceMetadata: { resource: 'https://mcp.example.com/mcp' },
      },
      server: () => {
        throw new Error('never made');
      },
    }),
  ).toThrow(
    /Leave `server` out: .*modernFeatures: featureHandler\(runtime, .*registerTool into contracts with their scopes/,
  );
});
