import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serveHttp, serveStdio } from 'toolprep/mcp';
import { createToolRuntime } from 'toolprep/runtime';
import { createHandlers } from './handlers.js';
import { tools } from './toolprep.gen.js';

// The notes live in NOTES_DIR, or in a fresh temporary folder with two notes to start from.
async function notesFolder(): Promise<string> {
  if (process.env.NOTES_DIR) return process.env.NOTES_DIR;
  const root = await mkdtemp(path.join(tmpdir(), 'notes-'));
  await mkdir(path.join(root, 'ideas'));
  await writeFile(path.join(root, 'ideas/today.md'), '# Today\nShip the notes server.\n');
  await writeFile(path.join(root, 'todo.md'), '- write docs\n- ship\n');
  return root;
}

const runtime = createToolRuntime(tools, { handlers: createHandlers(await notesFolder()) });
const info = { name: 'notes', version: '1.0.0' };
const httpAt = process.argv.indexOf('--http');
if (httpAt === -1) {
  await serveStdio(runtime, info);
} else {
  const server = await serveHttp(runtime, info, Number(process.argv[httpAt + 1] ?? 0));
  const address = server.address();
  console.log(
    `listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : ''}/mcp`,
  );
}
