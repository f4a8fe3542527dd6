// `tools/list` per request with an OAuth resource-server gate (issue 35), MCP 2026-07-28 over
// loopback HTTP: toolprep's `serveHttp` with `auth` against the same without it, and against the
// SDK v2's `requireBearerAuth` in front of `createMcpHandler`, with the same tools and scopes.
// Every server verifies the same RS256 JWTs with `jose` against a JWKS this process serves on
// loopback. Section 2c of `npm run bench`; alone: `node bench/run.mjs --only auth` (after
// `npm run build`).
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { BUILD_PACKAGE, bundleServers } from '../scripts/packages.mjs';
import { createContractProject, MODERN_META, messageOf, REPO } from './contracts.mjs';
import { cpuOf, HARNESS, postText, quantiles, startServer, stopServer } from './mcp-2026.mjs';

const VERSION = '2026-07-28';
const INFO = "{ name: 'bench', version: '1.0.0' }";
// The resource every token is for, whatever port a server listens on: one token serves them all.
const RESOURCE = 'https://mcp.bench.example/mcp';

/** The scopes tool number `index` needs: a third open, a third `notes:read`, a third both. */
const scopesOf = (index) => [[], ['notes:read'], ['notes:read', 'notes:write']][index % 3];

const CALLERS = {
  reader: 'notes:read',
  writer: 'notes:read notes:write',
};

const toolprepServer = (auth) => `import { readFileSync } from 'node:fs';
import { serveHttp } from 'toolprep/mcp';
import { createToolRuntime } from 'toolprep/runtime';
import { tools } from './src/toolprep.gen.js';
${HARNESS}
const setup = JSON.parse(readFileSync('bench-auth.json', 'utf8'));
const handlers = Object.fromEntries(tools.prepared.map((tool) => [tool.name, () => 'ok']));
${
  auth
    ? `const server = await serveHttp(createToolRuntime(tools, { handlers }), ${INFO}, 0, {
  auth: {
    issuer: setup.issuer,
    jwksUri: setup.jwksUri,
    resourceMetadata: { resource: setup.resource },
    withoutScopes: '${auth}',
  },
});`
    : `// The same tools without their scopes: a tool that asks for scopes is refused without auth.
const open = { ...tools, prepared: tools.prepared.map(({ access: _access, ...tool }) => tool) };
const server = await serveHttp(createToolRuntime(open, { handlers }), ${INFO}, 0);`
}
ready(server.address().port);`;

// The SDK v2 as its user would wire it: a jose verifier for requireBearerAuth, and either the
// tools a token's scopes allow registered by hand in the factory (the SDK filters no list), or
// every tool registered with its per-tool scope policy (requireScopes: a 403 step-up on a call).
const sdkServer = (auth) => `import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  createMcpHandler,
  getOAuthProtectedResourceMetadataUrl,
  McpServer,
  OAuthError,
  OAuthErrorCode,
  requireBearerAuth,
  requireScopes,
} from '@modelcontextprotocol/server';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as contracts from './src/tools/index.js';
${HARNESS}
const setup = JSON.parse(readFileSync('bench-auth.json', 'utf8'));
const keys = createRemoteJWKSet(new URL(setup.jwksUri));
const verifier = {
  async verifyAccessToken(token) {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, keys, { issuer: setup.issuer, audience: setup.resource, algorithms: ['RS256'] }));
    } catch {
      throw new OAuthError(OAuthErrorCode.InvalidToken, 'the token is not valid');
    }
    return {
      token,
      clientId: payload.client_id ?? payload.sub,
      scopes: typeof payload.scope === 'string' ? payload.scope.split(' ') : [],
      expiresAt: payload.exp,
      resource: new URL(Array.isArray(payload.aud) ? payload.aud[0] : payload.aud),
    };
  },
};
const mode = '${auth ?? 'off'}';
const handler = createMcpHandler(({ authInfo }) => {
  const server = new McpServer(${INFO});
  for (const [name, contract] of Object.entries(contracts)) {
    const needed = setup.scopes[name];
    if (mode === 'hidden' && !needed.every((scope) => authInfo.scopes.includes(scope))) continue;
    server.registerTool(
      name,
      {
        description: contract.description,
        inputSchema: contract.input,
        ...(contract.annotations ? { annotations: contract.annotations } : {}),
        ...(mode === 'step-up' && needed.length > 0 ? { scopeChallenge: requireScopes(...needed) } : {}),
      },
      async () => ({ content: [{ type: 'text', text: 'ok' }] }),
    );
  }
  return server;
});
const gate = requireBearerAuth({
  verifier,
  resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(setup.resource)),
  expectedResource: new URL(setup.resource),
});
const handle = toNodeHandler(
  mode === 'off'
    ? handler
    : {
        async fetch(request) {
          const authInfo = await gate(request);
          return authInfo instanceof Response ? authInfo : handler.fetch(request, { authInfo });
        },
      },
);
const server = createServer((request, response) => void handle(request, response));
server.listen(0, '127.0.0.1', () => ready(server.address().port));`;

const SERVERS = {
  'toolprep-off': toolprepServer(undefined),
  'toolprep-auth': toolprepServer('hidden'),
  'toolprep-step-up': toolprepServer('step-up'),
  'sdk-off': sdkServer(undefined),
  'sdk-auth': sdkServer('hidden'),
  'sdk-step-up': sdkServer('step-up'),
};
const NAMES = Object.keys(SERVERS);
const hasAuth = (name) => !name.endsWith('-off');
const listsAll = (name) => !name.endsWith('-auth');

/** An issuer on loopback: its JWKS served here, and RS256 access tokens signed with its key. */
async function startIssuer() {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'bench', alg: 'RS256', use: 'sig' }] };
  const server = createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks)),
  );
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const sign = (subject, scope) =>
    new SignJWT({ scope, client_id: subject })
      .setProtectedHeader({ alg: 'RS256', kid: 'bench', typ: 'at+jwt' })
      .setIssuer(issuer)
      .setAudience(RESOURCE)
      .setSubject(subject)
      .setIssuedAt()
      .setExpirationTime('2h')
      .sign(privateKey);
  return { issuer, jwksUri: `${issuer}/jwks`, jwks, sign, close: () => server.close() };
}

function listRequest(token) {
  return {
    headers: {
      'mcp-protocol-version': VERSION,
      'mcp-method': 'tools/list',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    text: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: MODERN_META } }),
  };
}

/** Throws unless the answer is the list `expected` names, whole (one page). */
function checkList(server, caller, answer, expected) {
  if (answer.status !== 200)
    throw new Error(
      `${server.name} (${caller}) tools/list: HTTP ${answer.status} ${answer.text.slice(0, 300)}`,
    );
  const { result } = messageOf(answer);
  const names = (result?.tools ?? []).map((tool) => tool.name).sort();
  if (result?.nextCursor !== undefined || names.join(',') !== expected.join(','))
    throw new Error(
      `${server.name} (${caller}) listed ${names.length} tools, not the ${expected.length} it should see: ${names.slice(0, 20).join(', ')}`,
    );
}

/** A project whose tools need scopes (config `access`), bundled servers, and the same scope table for the SDK. */
async function projectOf(count, fields, issuer) {
  const dir = createContractProject(count, { fields });
  const scopes = Object.fromEntries(
    Array.from({ length: count }, (_, index) => [`tool${index}`, scopesOf(index)]),
  );
  const ruled = Object.fromEntries(Object.entries(scopes).filter(([, needed]) => needed.length > 0));
  writeFileSync(
    path.join(dir, 'toolprep.config.ts'),
    `export default { access: { scopes: ${JSON.stringify(ruled)} } };\n`,
  );
  execFileSync(process.execPath, [path.join(BUILD_PACKAGE, 'dist/src/cli/main.js'), 'generate', '--quiet'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (const name of ['@modelcontextprotocol/server', '@modelcontextprotocol/node', 'jose'])
    symlinkSync(path.join(REPO, 'node_modules', name), path.join(dir, 'node_modules', name));
  writeFileSync(
    path.join(dir, 'bench-auth.json'),
    JSON.stringify({ issuer: issuer.issuer, jwksUri: issuer.jwksUri, resource: RESOURCE, scopes }),
  );
  for (const [name, source] of Object.entries(SERVERS)) writeFileSync(path.join(dir, `${name}.ts`), source);
  await bundleServers(
    dir,
    NAMES.map((name) => path.join(dir, `${name}.ts`)),
  );
  const manifest = JSON.parse(readFileSync(path.join(dir, 'toolprep.manifest.json'), 'utf8'));
  const recorded = manifest.tools.filter((tool) => tool.access?.scopes?.length).length;
  if (recorded !== Object.keys(ruled).length)
    throw new Error(`the manifest records scopes on ${recorded} tools, not ${Object.keys(ruled).length}`);
  return { dir, scopes };
}

/** What each caller should see from each server: every tool, or those its scopes allow. */
function expectedLists(scopes) {
  const all = Object.keys(scopes).sort();
  return Object.fromEntries(
    Object.entries(CALLERS).map(([caller, granted]) => [
      caller,
      {
        all,
        allowed: all.filter((name) => scopes[name].every((scope) => granted.split(' ').includes(scope))),
      },
    ]),
  );
}

/**
 * Before the clock: without a token an auth server answers 401 with its challenge, and a
 * step-up server answers the reader's call of a `notes:write` tool 403 `insufficient_scope`.
 */
async function checkRefusals(servers, tokens, scopes) {
  const written = Object.keys(scopes).find((name) => scopes[name].includes('notes:write'));
  for (const server of servers.filter((server) => hasAuth(server.name))) {
    const { headers, text } = listRequest(undefined);
    const bare = await postText(server.port, server.agent, headers, text);
    if (bare.status !== 401) throw new Error(`${server.name} answered a list without a token ${bare.status}`);
    if (!server.name.endsWith('step-up')) continue;
    const call = await postText(
      server.port,
      server.agent,
      {
        'mcp-protocol-version': VERSION,
        'mcp-method': 'tools/call',
        'mcp-name': written,
        authorization: `Bearer ${tokens.reader}`,
      },
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: written, arguments: {}, _meta: MODERN_META },
      }),
    );
    if (call.status !== 403)
      throw new Error(
        `${server.name} answered the reader's call of ${written} ${call.status}: ${call.text.slice(0, 200)}`,
      );
  }
}

/**
 * The servers alternated request by request (the order reversed every round), each caller in
 * turn, every answer checked after its clock stops: per server and caller, the milliseconds.
 */
async function alternate(servers, tokens, lists, { warmup, runs, budgetMs }) {
  const times = Object.fromEntries(
    servers.flatMap((server) => Object.keys(CALLERS).map((caller) => [`${server.name} ${caller}`, []])),
  );
  const once = async (server, caller) => {
    const { headers, text } = listRequest(hasAuth(server.name) ? tokens[caller] : undefined);
    const started = performance.now();
    const answer = await postText(server.port, server.agent, headers, text);
    const elapsed = performance.now() - started;
    const { all, allowed } = lists[caller];
    checkList(server, caller, answer, listsAll(server.name) ? all : allowed);
    return elapsed;
  };
  const round = async (index, record) => {
    const order = index % 2 === 0 ? servers : [...servers].reverse();
    for (const caller of Object.keys(CALLERS))
      for (const server of order) {
        const elapsed = await once(server, caller);
        if (record) times[`${server.name} ${caller}`].push(elapsed);
      }
  };
  for (let index = 0; index < warmup; index++) await round(index, false);
  const cpuBefore = await Promise.all(servers.map(cpuOf));
  const deadline = performance.now() + budgetMs;
  let rounds = 0;
  while (rounds < runs && performance.now() < deadline) await round(rounds++, true);
  const cpuAfter = await Promise.all(servers.map(cpuOf));
  const perRequest = Object.keys(CALLERS).length * rounds;
  const cpu = Object.fromEntries(
    servers.map((server, index) => [server.name, (cpuAfter[index] - cpuBefore[index]) / perRequest]),
  );
  const quantilesOf = Object.fromEntries(Object.entries(times).map(([key, list]) => [key, quantiles(list)]));
  return { at: (name, caller) => quantilesOf[`${name} ${caller}`], cpu, rounds };
}

/** jose's RS256 verification alone, in this process, with the key set in memory: µs per token. */
async function verifyAlone(issuer, token, quick) {
  const keys = createLocalJWKSet(issuer.jwks);
  const options = { issuer: issuer.issuer, audience: RESOURCE, algorithms: ['RS256'] };
  for (let run = 0; run < 200; run++) await jwtVerify(token, keys, options);
  const times = [];
  for (let batch = 0; batch < (quick ? 5 : 15); batch++) {
    const started = performance.now();
    for (let run = 0; run < 200; run++) await jwtVerify(token, keys, options);
    times.push(((performance.now() - started) / 200) * 1000);
  }
  return quantiles(times).median;
}

export async function benchmarkAuth({ projects, quick }) {
  const options = quick
    ? { warmup: 10, runs: 40, budgetMs: 30_000 }
    : { warmup: 30, runs: 150, budgetMs: 150_000 };
  const issuer = await startIssuer();
  const tokens = Object.fromEntries(
    await Promise.all(
      Object.entries(CALLERS).map(async ([caller, scope]) => [caller, await issuer.sign(caller, scope)]),
    ),
  );
  const rows = [];
  const stepUpRows = [];
  const cpuRows = [];
  let rounds = Infinity;
  try {
    for (const { tools: count, fields } of projects) {
      const { dir, scopes } = await projectOf(count, fields, issuer);
      const servers = [];
      try {
        for (const name of NAMES) servers.push(await startServer(dir, name));
        const lists = expectedLists(scopes);
        for (const caller of Object.keys(CALLERS))
          for (const server of servers) {
            const { headers, text } = listRequest(hasAuth(server.name) ? tokens[caller] : undefined);
            const answer = await postText(server.port, server.agent, headers, text);
            checkList(
              server,
              caller,
              answer,
              listsAll(server.name) ? lists[caller].all : lists[caller].allowed,
            );
          }
        await checkRefusals(servers, tokens, scopes);
        const measured = await alternate(servers, tokens, lists, options);
        rounds = Math.min(rounds, measured.rounds);
        const ms = ({ median, p90 }) =>
          `${median.toFixed(median < 10 ? 2 : 1)} (${p90.toFixed(p90 < 10 ? 2 : 1)})`;
        const times = (x) => `${x.toFixed(2)}×`;
        for (const caller of Object.keys(CALLERS)) {
          const at = (name) => measured.at(name, caller);
          const seen = `${caller} (${lists[caller].allowed.length} of ${count})`;
          rows.push(
            `| ${count} × ${fields} | ${seen} | ${ms(at('toolprep-off'))} | ${ms(at('toolprep-auth'))} | ${times(at('toolprep-auth').median / at('toolprep-off').median)} | ${ms(at('sdk-off'))} | ${ms(at('sdk-auth'))} | ${times(at('sdk-auth').median / at('sdk-off').median)} | **${times(at('sdk-auth').median / at('toolprep-auth').median)}** |`,
          );
          stepUpRows.push(
            `| ${count} × ${fields} | ${caller} | ${ms(at('toolprep-step-up'))} | ${ms(at('sdk-step-up'))} | **${times(at('sdk-step-up').median / at('toolprep-step-up').median)}** |`,
          );
        }
        const { cpu } = measured;
        cpuRows.push(
          `| ${count} × ${fields} | ${NAMES.map((name) => cpu[name].toFixed(2)).join(' | ')} | ${times(cpu['toolprep-auth'] / cpu['toolprep-off'])} | **${times(cpu['sdk-auth'] / cpu['toolprep-auth'])}** | **${times(cpu['sdk-step-up'] / cpu['toolprep-step-up'])}** |`,
        );
      } finally {
        for (const server of servers) stopServer(server);
        rmSync(dir, { recursive: true, force: true });
      }
    }
    const alone = await verifyAlone(issuer, tokens.writer, quick);
    const version = (name) =>
      JSON.parse(readFileSync(path.join(REPO, 'node_modules', name, 'package.json'), 'utf8')).version;
    return [
      `Over loopback HTTP, each server in a child process of its own, \`tools/list\` as a 2026-07-28 request. The tools are the bench's generated contracts (as in 2b), a third open, a third needing \`notes:read\`, a third \`notes:read notes:write\` (toolprep: config \`access.scopes\`, recorded in the manifest; the SDK: the same table). Two callers, each with an RS256 JWT signed by an issuer this process serves on loopback (its JWKS fetched once by each server): the reader (\`notes:read\`) and the writer (both scopes). Every server verifies every token with \`jose\` (signature, issuer, audience, expiry). toolprep: \`serveHttp\` with \`auth: { issuer, jwksUri, resourceMetadata }\`, and without \`auth\` (the same tools, their scopes taken off: toolprep refuses scoped tools without it). SDK v2 (@modelcontextprotocol/server ${version('@modelcontextprotocol/server')}, @modelcontextprotocol/node ${version('@modelcontextprotocol/node')}): \`requireBearerAuth({ verifier, resourceMetadataUrl, expectedResource })\`, whose verifier is the \`jose\` check a user writes, in front of \`createMcpHandler\` (the protected resource metadata, which toolprep's handler serves itself, left out: a user adds \`oauthMetadataResponse\`, one path check per request); its factory, called per request, registers the tools the request's \`authInfo.scopes\` allow (the SDK has no list filter: a user filters by hand), and without the gate every tool. Each answer is checked after its clock stops to be the whole list its caller should see; before the clock, each gated server answers a request without a token 401, and each step-up server the reader's call of a \`notes:write\` tool 403. Milliseconds per request as the client sees it, median (p90), the six servers alternated request by request (order reversed every round), ${options.warmup} rounds of warm-up, then ${rounds} rounds per caller. **Measured on a shared machine** (other engineers' builds and tests running): read the ratios, measured side by side in one run, not the absolute figures.`,
      '',
      '| tools × fields | caller (tools it sees) | toolprep, no auth | toolprep, `auth` | toolprep auth ÷ none | SDK v2, no gate | SDK v2, `requireBearerAuth` | SDK auth ÷ none | SDK v2 auth ÷ toolprep auth |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      ...rows,
      '',
      `Step-up instead of filtering, in the same rounds: every tool listed to every token, a call without a tool's scopes refused 403 \`insufficient_scope\` before it runs (toolprep \`withoutScopes: 'step-up'\`; the SDK's per-tool policy \`scopeChallenge: requireScopes(…)\` on \`registerTool\`, its factory registering every tool).`,
      '',
      '| tools × fields | caller | toolprep `step-up` | SDK v2 `requireScopes` | SDK ÷ toolprep |',
      '| --- | --- | --- | --- | --- |',
      ...stepUpRows,
      '',
      "Server CPU per request, in the server's own process (the mean over both callers' measured requests, GC included): less swayed by the machine's other load than the times above.",
      '',
      '| tools × fields | toolprep, no auth | toolprep `auth` | toolprep `step-up` | SDK v2, no gate | SDK v2 `requireBearerAuth` | SDK v2 `requireScopes` | toolprep auth ÷ none | SDK auth ÷ toolprep auth | SDK step-up ÷ toolprep step-up |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      ...cpuRows,
      '',
      `\`jose\`'s RS256 verification of one token alone (key in memory, in the bench's process, the same run): ${alone.toFixed(0)} µs, a floor under what any gate adds.`,
    ].join('\n');
  } finally {
    issuer.close();
  }
}

export const AUTH_PROJECTS = [
  { tools: 53, fields: 25 },
  { tools: 200, fields: 5 },
];
