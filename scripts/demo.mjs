// `npm run demo`: build the example notes server with the toolprep Vite plugin, show the prepared
// tool surface, then start the server over stdio and call it with the official MCP SDK client:
// one call with double-serialised arguments (repaired), one with a list written as text
// (refused), and one sent correctly.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const example = path.join(repo, 'examples/notes-server');
const bold = (text) => (process.stdout.isTTY ? `\u001b[1m${text}\u001b[22m` : text);
const step = (text) => console.log(`\n${bold(text)}`);

step('1. Build toolprep, then the example server with the toolprep Vite plugin');
execFileSync('npm', ['run', '--silent', 'build'], { cwd: repo, stdio: 'inherit' });
const { build } = await import('vite');
const started = performance.now();
await build({ configFile: path.join(example, 'vite.config.ts'), logLevel: 'warn' });
console.log(`   built examples/notes-server/dist/server.js in ${Math.round(performance.now() - started)} ms`);

step('2. The prepared tool surface (examples/notes-server/toolprep.manifest.json)');
const manifest = JSON.parse(readFileSync(path.join(example, 'toolprep.manifest.json'), 'utf8'));
for (const tool of manifest.tools) {
  const fields = Object.keys(tool.inputSchema.mcp.properties ?? {}).join(', ');
  console.log(`   ${tool.name.padEnd(13)} ${String(tool.size.tokens).padStart(4)} tokens  (${fields})`);
}
console.log(
  `   ${'total'.padEnd(13)} ${String(manifest.totals.tokens).padStart(4)} tokens in ${manifest.totals.tools} tools`,
);

step('3. Start the server over stdio and connect the official MCP client');
const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
const client = new Client({ name: 'toolprep-demo', version: '1.0.0' });
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [path.join(example, 'dist/server.js')],
    stderr: 'inherit',
  }),
);
const { tools } = await client.listTools();
console.log(`   tools/list: ${tools.map((tool) => tool.name).join(', ')}`);

const show = async (label, name, args) => {
  step(label);
  console.log(`   → ${name} ${JSON.stringify(args)}`);
  const result = await client.callTool({ name, arguments: args });
  const text = result.content.map((part) => part.text).join('\n');
  console.log(`   ← ${result.isError ? 'isError: ' : ''}${text}`);
  return result;
};
const repaired = await show(
  '4. Double-serialised arguments: the outline and its children arrive as JSON text, and are repaired',
  'set_outline',
  {
    path: 'ideas/today.md',
    outline: JSON.stringify([
      { title: 'Plan', children: JSON.stringify([{ title: 'Build' }, { title: 'Ship' }]) },
    ]),
  },
);
const refused = await show(
  '5. A list written as text where a path or a list is taken: refused, not misread as one path',
  'read_notes',
  {
    paths: '["ideas/today.md","todo.md"]',
  },
);
const correct = await show('6. The same call sent correctly', 'read_notes', {
  paths: ['ideas/today.md', 'todo.md'],
});
await client.close();

const ok = !repaired.isError && refused.isError && !correct.isError;
console.log(
  `\n${ok ? 'Demo finished: repaired, refused and answered as expected.' : 'Demo failed: see above.'}`,
);
process.exit(ok ? 0 : 1);
