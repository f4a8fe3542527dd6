// Until the example MCP server lands, the demo prepares the example contracts, shows what a model
// would be shown for each one, and calls a tool through the runtime with the mistakes models make.
import { execFileSync } from 'node:child_process';

execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
const { prepareTool } = await import('../dist/src/build.js');
const { createToolRuntime } = await import('../dist/src/runtime/index.js');
const contracts = await import('./demo-tools.mjs');

const tools = Object.entries(contracts).map(([exportName, contract]) =>
  prepareTool(contract, { exportName }),
);
for (const tool of tools) {
  const bytes = JSON.stringify(tool.inputSchema.mcp).length;
  console.log(`\n${tool.name}  (${bytes} bytes, digest ${tool.digest})`);
  console.log(`  ${tool.description}`);
  console.log(JSON.stringify(tool.inputSchema.mcp, null, 2).replace(/^/gm, '  '));
}

const runtime = createToolRuntime(
  { tools, load: { read_files: () => contracts.readFiles, edit_note: () => contracts.editNote } },
  {
    handlers: {
      read_files: ({ paths, encoding }) => `read ${paths.join(', ')} as ${encoding}`,
      edit_note: (args) => `edited: ${JSON.stringify(args)}`,
    },
  },
);
const calls = [
  ['a correct call', 'read_files', { paths: ['notes/a.md', 'notes/b.md'] }],
  [
    'double-serialised arguments (repaired)',
    'edit_note',
    '{"notebook":"work","action":"rename","title":"todo","to":"done"}',
  ],
  ['a list written as text (refused)', 'read_files', { paths: '["notes/a.md","notes/b.md"]' }],
];
console.log('\nCalls through the runtime:');
for (const [label, name, args] of calls) {
  const result = await runtime.call(name, args);
  console.log(`\n  ${label}: ${name} ${JSON.stringify(args)}`);
  console.log(`  → ${result.ok ? result.value : `${result.error.code}: ${result.error.message}`}`);
}
console.log('\nThe MCP server demo (a real client over stdio) is coming; see the open issues.');
