import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { copyFixture, type FixtureProject, REPO } from '../support/fixture-project.js';

const LIST = 'paths is a list written as text — pass the array itself, not JSON written as text';
const texts = (result: unknown) =>
  (result as { content: { text: string }[] }).content.map((part) => part.text).join('\n');

/** Every TypeScript file of the project's `src`, recursively. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? sourceFiles(file) : file.endsWith('.ts') ? [file] : [];
  });
}

/**
 * A project written in Zod 3, as most MCP servers in the wild are: the same fixture with `zod`
 * being zod 3.23.8 (the classic package), then zod 3.25 imported as `zod/v3`. Each is generated with
 * the CLI, type-checked with tsc and served over stdio to the official MCP client.
 */
describe.each([
  { project: 'zod@3.23.8', zod: 'zod3', specifier: 'zod' },
  { project: 'zod/v3 (zod 3.25.76)', zod: 'zod325', specifier: 'zod/v3' },
])('a $project project', ({ zod, specifier }) => {
  let fixture: FixtureProject;
  let client: Client;
  beforeAll(async () => {
    fixture = copyFixture('zod3-project', { zod });
    for (const file of sourceFiles(path.join(fixture.dir, 'src'))) {
      const relative = path.relative(fixture.dir, file);
      fixture.write(relative, fixture.read(relative).replaceAll("from 'zod'", `from '${specifier}'`));
    }
    const generate = fixture.cli('generate');
    expect(generate.stderr).toBe('');
    expect(generate.stdout).toMatch(/^\[toolprep\] generate: 1 file scanned, 3 tools found in \d+ ms; wrote/);
    expect(generate.status).toBe(0);
    await build({
      entryPoints: sourceFiles(path.join(fixture.dir, 'src')),
      outdir: path.join(fixture.dir, 'out'),
      format: 'esm',
      platform: 'node',
      logLevel: 'silent',
    });
    client = new Client({ name: 'zod3-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [path.join(fixture.dir, 'out/server.js')],
        cwd: fixture.dir,
      }),
    );
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    fixture?.remove();
  });

  test('the manifest records Zod 3 and the generated module brings its run-time adapter', () => {
    const manifest = JSON.parse(fixture.read('toolprep.manifest.json'));
    expect(
      manifest.tools.map((tool: { name: string; libraries: string[] }) => [tool.name, tool.libraries]),
    ).toEqual([
      ['edit_note', ['zod3']],
      ['place_window', ['zod3']],
      ['read_files', ['zod3']],
    ]);
    expect(fixture.read('src/toolprep.gen.ts')).toContain("import { zod3 } from 'toolprep/runtime/zod3';");
  });

  test("tsc checks each handler against its contract's Zod 3 types", () => {
    const typeCheck = () =>
      spawnSync(
        process.execPath,
        [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'],
        {
          cwd: fixture.dir,
          encoding: 'utf8',
        },
      );
    expect(typeCheck().stdout).toBe('');
    const server = fixture.read('src/server.ts');
    fixture.write('src/server.ts', server.replace('files: [paths].flat()', 'files: [paths.toUpperCase()]'));
    const broken = typeCheck();
    fixture.write('src/server.ts', server);
    expect(broken.stdout).toMatch(
      /src\/server\.ts\(\d+,\d+\): error TS2339: Property 'toUpperCase' does not exist on type 'string \| string\[\]'/,
    );
    expect(broken.stdout.match(/error TS/g)).toHaveLength(1);
  });

  test('the server lists the prepared documents', async () => {
    const { tools } = await client.listTools();
    const manifest = JSON.parse(fixture.read('toolprep.manifest.json'));
    expect(tools.map((tool) => tool.name)).toEqual(['edit_note', 'place_window', 'read_files']);
    for (const [index, tool] of tools.entries()) {
      expect(tool.inputSchema).toEqual(manifest.tools[index].inputSchema.mcp);
      expect(tool.outputSchema).toEqual(manifest.tools[index].outputSchema);
    }
    expect(tools[1]?.inputSchema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        window: { type: 'string' },
        frame: {
          type: 'object',
          properties: {
            x: { type: 'number' },
            y: { type: 'number' },
            size: {
              type: 'array',
              minItems: 2,
              maxItems: 2,
              prefixItems: [{ type: 'number' }, { type: 'number' }],
            },
          },
          required: ['x', 'y', 'size'],
        },
        theme: { type: 'string', enum: ['light', 'dark'], default: 'light' },
      },
      required: ['window', 'frame'],
    });
  });

  test('a list written as text is refused by name', async () => {
    const refused = await client.callTool({ name: 'read_files', arguments: { paths: '["a.md","b.md"]' } });
    expect(refused.isError).toBe(true);
    expect(texts(refused)).toBe(LIST);
    const listed = await client.callTool({ name: 'read_files', arguments: { paths: ['a.md', 'b.md'] } });
    expect(listed.structuredContent).toEqual({ files: ['a.md', 'b.md'] });
  });

  test('a double-serialised object is repaired, then parsed by the Zod 3 parser once', async () => {
    const frame = JSON.stringify({ x: 1, y: 2, size: JSON.stringify([640, 480]) });
    const repaired = await client.callTool({ name: 'place_window', arguments: { window: 'main', frame } });
    expect(repaired.isError).toBeFalsy();
    expect(texts(repaired)).toBe('main at 1,2, 640×480, light');
    const edited = await client.callTool({
      name: 'edit_note',
      arguments: { action: 'rename', id: 'n1', title: 'Plans' },
    });
    expect(texts(edited)).toBe('n1 is now Plans');
  });

  test('bad arguments are refused naming the field, as a Zod 4 contract is', async () => {
    const invalid = await client.callTool({
      name: 'place_window',
      arguments: { window: 'main', frame: { x: 'one', y: 2, size: [1, 2] } },
    });
    expect(invalid.isError).toBe(true);
    expect(texts(invalid)).toBe('Invalid arguments: "frame.x" must be a number (got "one")');
  });
});
