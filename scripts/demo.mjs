// Until the example MCP server lands, the demo prepares the example contracts and shows what a
// model would be shown for each one.
import { execFileSync } from 'node:child_process';

execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
const { prepareTool } = await import('../dist/src/build.js');
const tools = await import('./demo-tools.mjs');

for (const [exportName, contract] of Object.entries(tools)) {
  const prepared = prepareTool(contract, { exportName });
  const bytes = JSON.stringify(prepared.inputSchema.mcp).length;
  console.log(`\n${prepared.name}  (${bytes} bytes, digest ${prepared.digest})`);
  console.log(`  ${prepared.description}`);
  console.log(JSON.stringify(prepared.inputSchema.mcp, null, 2).replace(/^/gm, '  '));
}
console.log('\nThe MCP server demo (a real client over stdio) is coming; see the open issues.');
