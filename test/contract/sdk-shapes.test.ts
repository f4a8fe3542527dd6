import { existsSync } from 'node:fs';
import path from 'node:path';
import { type Problem, prepareTool, ToolprepError } from '@toolprep/build';
import { defineTool } from 'toolprep';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { bundlers } from '../support/bundlers.js';
import { copyFixture, type FixtureProject } from '../support/fixture-project.js';

/**
 * Contracts written as the MCP SDK's `registerTool` (or another framework) spells them: every key
 * `defineTool` does not take is a build error naming the tool and the key, with toolprep's spelling
 * where there is one; `title` and `icons` are MCP's and go into the prepared tool, checked.
 * Each `@ts-expect-error` is tsc refusing the same contract; the build refuses it without tsc.
 */

const input = z.object({ query: z.string() });
const output = z.object({ hits: z.number() });
const PNG = 'data:image/png;base64,iVBORw0KGgo=';

type Outcome =
  | { readonly prepared: Record<string, unknown> }
  | { readonly problems: readonly Pick<Problem, 'code' | 'field' | 'hint'>[] };

function outcomeOf(contract: unknown): Outcome {
  try {
    const { name: _name, title, icons } = prepareTool(contract, { exportName: 'search', warn: () => {} });
    return { prepared: { title, icons } };
  } catch (error) {
    if (!(error instanceof ToolprepError)) throw error;
    return {
      problems: error.problems.map(({ code, field, hint }) => ({ code, field, hint })),
    };
  }
}

const refused = (code: string, field: string, hint: string | RegExp) => ({
  problems: [{ code, field, hint: typeof hint === 'string' ? hint : expect.stringMatching(hint) }],
});

const rows: [description: string, contract: unknown, outcome: unknown][] = [
  [
    'inputSchema (the SDK’s), with an object schema',
    // @ts-expect-error: defineTool takes `input`
    defineTool({ description: 'Search.', inputSchema: input }),
    refused('unknown-key', 'inputSchema', /^write `input` \(the SDK's inputSchema\)/),
  ],
  [
    'inputSchema as the SDK v1 takes it, a shape of fields',
    // @ts-expect-error: defineTool takes `input`
    defineTool({ description: 'Search.', inputSchema: { query: z.string() } }),
    refused('unknown-key', 'inputSchema', /input: z\.object\(\{ \.\.\. \}\)/),
  ],
  [
    'input given a shape of fields',
    // @ts-expect-error: `input` is a schema, not a shape of fields
    defineTool({ description: 'Search.', input: { query: z.string() } }),
    refused('not-a-schema', 'input', /shape of fields.*wrap it in z\.object\(\{ \.\.\. \}\)/),
  ],
  [
    'outputSchema (the SDK’s)',
    // @ts-expect-error: defineTool takes `output`
    defineTool({ description: 'Search.', input, outputSchema: output }),
    refused('unknown-key', 'outputSchema', /^write `output` \(the SDK's outputSchema\)/),
  ],
  [
    '_meta (the SDK’s)',
    // @ts-expect-error: defineTool takes `meta`
    defineTool({ description: 'Search.', input, _meta: { 'com.example/tier': 'free' } }),
    refused('unknown-key', '_meta', /^write `meta`/),
  ],
  [
    'execution.taskSupport (the SDK’s)',
    // @ts-expect-error: defineTool takes `task`
    defineTool({ description: 'Search.', input, execution: { taskSupport: 'optional' } }),
    refused('unknown-key', 'execution', /^write `task`/),
  ],
  [
    'a handler in the contract (registerTool’s callback, the AI SDK’s execute)',
    // @ts-expect-error: a handler is given to the runtime
    defineTool({ description: 'Search.', input, execute: async () => 'found' }),
    refused('unknown-key', 'execute', /createToolRuntime\(\{ handlers \}\)/),
  ],
  [
    'an annotation written at the top level',
    // @ts-expect-error: hints go in `annotations`
    defineTool({ description: 'Search.', input, readOnlyHint: true }),
    refused('unknown-key', 'readOnlyHint', 'write it as annotations.readOnlyHint'),
  ],
  [
    'parameters (the AI SDK 4’s and fastmcp’s)',
    // @ts-expect-error: defineTool takes `input`
    defineTool({ description: 'Search.', parameters: input }),
    refused('unknown-key', 'parameters', /^write `input`/),
  ],
  [
    'a misspelt key',
    // @ts-expect-error: `descripton` is no key
    defineTool({ descripton: 'Search.', description: 'Search.', input }),
    refused(
      'unknown-key',
      'descripton',
      /^defineTool takes name, description, title, icons, input, .*meta`$/,
    ),
  ],
  [
    'title and icons, as MCP has them',
    defineTool({
      description: 'Search.',
      title: 'Search the notes',
      icons: [
        { src: 'https://example.com/search.png', mimeType: 'image/png', sizes: ['48x48', '96x96'] },
        { src: PNG, theme: 'dark', sizes: ['any'] },
      ],
      input,
    }),
    {
      prepared: {
        title: 'Search the notes',
        icons: [
          { src: 'https://example.com/search.png', mimeType: 'image/png', sizes: ['48x48', '96x96'] },
          { src: PNG, theme: 'dark', sizes: ['any'] },
        ],
      },
    },
  ],
  [
    'no title and no icons: absent, as before',
    defineTool({ description: 'Search.', input }),
    { prepared: { title: undefined, icons: undefined } },
  ],
  [
    'an empty title',
    defineTool({ description: 'Search.', title: ' ', input }),
    { problems: [{ code: 'invalid-title', field: 'title', hint: undefined }] },
  ],
  [
    'an icon at a file path',
    defineTool({ description: 'Search.', icons: [{ src: './search.png' }], input }),
    refused('invalid-icon', 'icons[0].src', /host the image, or inline it as a data: URI/),
  ],
  [
    'an icon of another scheme',
    defineTool({ description: 'Search.', icons: [{ src: 'file:///icons/search.png' }], input }),
    refused('invalid-icon', 'icons[0].src', /host the image/),
  ],
  [
    'an icon size that is not WxH',
    defineTool({ description: 'Search.', icons: [{ src: PNG, sizes: ['48'] }], input }),
    { problems: [{ code: 'invalid-icon', field: 'icons[0].sizes', hint: undefined }] },
  ],
  [
    'an icon theme MCP does not have',
    // @ts-expect-error: light or dark
    defineTool({ description: 'Search.', icons: [{ src: PNG }, { src: PNG, theme: 'dim' }], input }),
    { problems: [{ code: 'invalid-icon', field: 'icons[1].theme', hint: undefined }] },
  ],
  [
    'an icon MIME type that is not one',
    defineTool({ description: 'Search.', icons: [{ src: PNG, mimeType: 'png' }], input }),
    { problems: [{ code: 'invalid-icon', field: 'icons[0].mimeType', hint: undefined }] },
  ],
  [
    'an icon key MCP does not have',
    // @ts-expect-error: no `alt`
    defineTool({ description: 'Search.', icons: [{ src: PNG, alt: 'a lens' }], input }),
    refused('invalid-icon', 'icons[0].alt', 'an icon has src, mimeType, sizes, theme'),
  ],
  [
    'icons not a list',
    // @ts-expect-error: a list of icons
    defineTool({ description: 'Search.', icons: { src: PNG }, input }),
    refused('invalid-icon', 'icons', /^icons: \[\{ src:/),
  ],
];

test.each(rows)('%s', (_, contract, outcome) => {
  expect(outcomeOf(contract)).toEqual(outcome);
});

describe('the SDK’s spelling fails the build, naming file, line, tool and key', () => {
  const SDK_SHAPED = `import { z } from 'zod';
import { defineTool } from '../lib/toolprep.js';

export const findNotes = defineTool({
  title: 'Find notes',
  description: 'Find notes by words.',
  inputSchema: { words: z.string() },
  outputSchema: z.object({ paths: z.array(z.string()) }),
});
`;
  const MESSAGES = [
    /src\/tools\/find\.ts:4 tool "find_notes", inputSchema: "inputSchema" is not a key defineTool takes, so it would mean nothing \(write `input`/,
    /src\/tools\/find\.ts:4 tool "find_notes", outputSchema: "outputSchema" is not a key defineTool takes, so it would mean nothing \(write `output`/,
  ];
  let project: FixtureProject;
  beforeAll(() => {
    project = copyFixture('project');
    project.write('src/tools/find.ts', SDK_SHAPED);
  });
  afterAll(() => project.remove());

  test('toolprep generate exits 1 and writes nothing', () => {
    const { status, stderr } = project.cli('generate');
    expect(status).toBe(1);
    for (const message of MESSAGES) expect(stderr).toMatch(message);
    expect(existsSync(path.join(project.dir, 'toolprep.manifest.json'))).toBe(false);
  });

  test.each(['vite', 'esbuild'] as const)('a %s build fails, though it type-checks nothing', async (name) => {
    const build = bundlers[name](project.dir, path.join(project.dir, 'out', name), {});
    for (const message of MESSAGES) await expect(build).rejects.toThrow(message);
  });
});

test('inspect shows a tool’s title and icons; the manifest holds them', () => {
  const project = copyFixture('project');
  try {
    project.write(
      'src/tools/stats.ts',
      project
        .read('src/tools/stats.ts')
        .replace(
          "description: 'Count",
          "title: 'Note statistics',\n  icons: [{ src: 'https://example.com/s.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'dark' }],\n  description: 'Count",
        ),
    );
    const { status, stdout } = project.cli('inspect', 'note_stats');
    expect(status).toBe(0);
    expect(stdout.split('\n').slice(0, 3)).toEqual([
      'note_stats — Note statistics',
      '  Count notes, words and tags.',
      '  icon https://example.com/s.png · image/png · 48x48 · dark theme',
    ]);
    const { stdout: json } = project.cli('inspect', 'note_stats', '--json');
    expect(JSON.parse(json)).toMatchObject({
      name: 'note_stats',
      title: 'Note statistics',
      icons: [{ src: 'https://example.com/s.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'dark' }],
    });
  } finally {
    project.remove();
  }
});
