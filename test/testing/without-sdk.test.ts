import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { prepareToolSet } from '@toolprep/build';
import { defineTool } from 'toolprep';
import { afterAll, expect, test } from 'vitest';
import { z } from 'zod';
import { REPO } from '../support/fixture-project.js';

/**
 * The in-memory client with only the built `toolprep` installed, and no MCP SDK: 2026-07-28 needs
 * none, and a 2025 client is refused saying what to install (decision 0045).
 */

const project = mkdtempSync(path.join(tmpdir(), 'toolprep-testing-no-sdk-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

test('2026-07-28 lists the tools; a 2025 client is refused, naming the SDK to install', () => {
  const installed = path.join(project, 'node_modules/toolprep');
  mkdirSync(installed, { recursive: true });
  cpSync(path.join(REPO, 'dist'), path.join(installed, 'dist'), { recursive: true });
  cpSync(path.join(REPO, 'package.json'), path.join(installed, 'package.json'));
  const { format, extensionKeys, prepared } = prepareToolSet({
    echo: defineTool({ description: 'Echoes.', input: z.object({ text: z.string() }) }),
  });
  writeFileSync(
    path.join(project, 'check.mjs'),
    `import { createToolRuntime } from 'toolprep/runtime';
import { connectInMemory } from 'toolprep/testing';
// The prepared tools without loaders: nothing here calls one.
const tools = { ...${JSON.stringify({ format, extensionKeys, prepared })}, load: {}, adapters: [] };
const runtime = createToolRuntime(tools, { handlers: { echo: ({ text }) => text } });
const client = await connectInMemory(runtime);
console.log((await client.listTools()).map((tool) => tool.name).join());
await connectInMemory(runtime, { protocol: '2025-11-25' }).then(
  () => console.log('connected'),
  (error) => console.log(error.message),
);
`,
  );
  const run = spawnSync(process.execPath, ['check.mjs'], { cwd: project, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.stdout).toBe(
    'echo\n[toolprep] a 2025 client needs @modelcontextprotocol/sdk, which serves 2025 sessions: install it (npm install -D @modelcontextprotocol/sdk), or connect with protocol 2026-07-28\n',
  );
});
