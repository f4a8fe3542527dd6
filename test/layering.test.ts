import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPO } from './support/fixture-project.js';
import { importCycles, layeringViolations, type SourceFile } from './support/layering.js';

function sources(): SourceFile[] {
  return ['src', 'plugin'].flatMap((folder) =>
    readdirSync(path.join(REPO, folder), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .map((entry) => {
        const file = path.relative(REPO, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
        return { path: file, text: readFileSync(path.join(REPO, file), 'utf8') };
      }),
  );
}

describe('imports go one way: discover → load → prepare → emit → serve', () => {
  test('no module imports from a later stage, and run-time code imports no build code', () => {
    const files = sources();
    expect(files.length).toBeGreaterThan(50);
    expect(layeringViolations(files)).toEqual([]);
  });

  test.each([
    ['a stage importing a later one', 'src/prepare/x.ts', "import { emitModule } from '../emit/module.js';"],
    [
      'the runtime importing the generator',
      'src/runtime/x.ts',
      "import { generate } from '../generate/generate.js';",
    ],
    ['the runtime importing a package', 'src/runtime/x.ts', "import { z } from 'zod';"],
    ['the runtime importing a Node module', 'src/runtime/x.ts', "import { createHash } from 'node:crypto';"],
    [
      'a run-time adapter importing a Node module',
      'src/adapters/zod4/runtime.ts',
      "import { readFileSync } from 'node:fs';",
    ],
    ['the run-time floor importing a Node module', 'src/shared/run/x.ts', "import path from 'node:path';"],
    [
      'the run-time floor importing the build floor',
      'src/shared/run/x.ts',
      "import { plural } from '../build/plural.js';",
    ],
    [
      'the runtime importing the build floor',
      'src/runtime/x.ts',
      "import { problem } from '../shared/build/problems.js';",
    ],
    [
      'the runtime importing an adapter’s build side',
      'src/runtime/x.ts',
      "import { zod4Builder } from '../adapters/zod4/build.js';",
    ],
    [
      'a run-time adapter importing its build side',
      'src/adapters/zod4/runtime.ts',
      "export { zod4Builder } from './build.js';",
    ],
    [
      'a run-time adapter loading its type table at start',
      'src/adapters/zod4/runtime.ts',
      "import { factsOf } from './def.js';",
    ],
    [
      'a lazily imported build module',
      'src/runtime/x.ts',
      "const load = () => import('../load/load-modules.js');",
    ],
    [
      'a surface importing the bundler glue',
      'src/surfaces/x.ts',
      "import { unplugin } from '../../plugin/index.js';",
    ],
    [
      'the MCP wire importing the SDK',
      'src/surfaces/mcp/wire/x.ts',
      "import { McpError } from '@modelcontextprotocol/sdk/types.js';",
    ],
    [
      'the MCP wire importing a Node module',
      'src/surfaces/mcp/wire/x.ts',
      "import { Buffer } from 'node:buffer';",
    ],
    [
      'the tool service importing the SDK at run time',
      'src/surfaces/mcp/service/x.ts',
      "import { ProtocolError } from '@modelcontextprotocol/server';",
    ],
    [
      'the tool service importing an era',
      'src/surfaces/mcp/service/x.ts',
      "import { modernServing } from '../modern/server.js';",
    ],
    [
      'toolprep’s own 2026-07-28 server importing the SDK',
      'src/surfaces/mcp/modern/x.ts',
      "const sdk = () => import('@modelcontextprotocol/server');",
    ],
    [
      'an era importing a transport',
      'src/surfaces/mcp/legacy/x.ts',
      "import { httpExchange } from '../transport/http-exchange.js';",
    ],
  ])('catches %s', (_case, file, text) => {
    expect(layeringViolations([{ path: file, text }])).toHaveLength(1);
  });

  test('type-only imports of a package are fine in the runtime; a dependency of a stage on its floor is fine; a run-time adapter may load its finder lazily', () => {
    expect(
      layeringViolations([
        { path: 'src/runtime/x.ts', text: "import type { $ZodType } from 'zod/v4/core';" },
        { path: 'src/emit/x.ts', text: "import type { Manifest } from '../manifest/manifest.js';" },
        { path: 'src/adapters/zod3/runtime.ts', text: "import type { Zod3Schema } from './def.js';" },
        { path: 'src/adapters/zod4/runtime.ts', text: "const load = () => import('./locate.js');" },
        {
          path: 'src/surfaces/mcp/service/x.ts',
          text: "import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';",
        },
        {
          path: 'src/surfaces/mcp/v2/x.ts',
          text: "import { ProtocolError } from '@modelcontextprotocol/server';",
        },
        {
          path: 'src/surfaces/mcp/transport/x.ts',
          text: "import { modernServing } from '../modern/server.js';",
        },
      ]),
    ).toEqual([]);
  });

  test('no two modules import each other, through any chain, type-only imports included', () => {
    expect(importCycles(sources())).toEqual([]);
  });

  test('a cycle through a type-only import is found', () => {
    expect(
      importCycles([
        { path: 'src/manifest/a.ts', text: "import type { B } from './b.js';" },
        { path: 'src/manifest/b.ts', text: "import { c } from './c.js';" },
        { path: 'src/manifest/c.ts', text: "export type { A } from './a.js';" },
        { path: 'src/manifest/d.ts', text: "import { a } from './a.js';" },
      ]),
    ).toEqual([['src/manifest/a.ts', 'src/manifest/b.ts', 'src/manifest/c.ts']]);
  });
});
