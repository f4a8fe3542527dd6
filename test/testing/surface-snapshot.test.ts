import { readFileSync } from 'node:fs';
import path from 'node:path';
import { prepareToolSet } from '@toolprep/build';
import fc from 'fast-check';
import { defineTool, type ToolContract } from 'toolprep';
import { createToolRuntime } from 'toolprep/runtime';
import { surfaceSnapshot } from 'toolprep/testing';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createHandlers } from '../../examples/notes-server/src/handlers.js';
import { tools as exampleTools } from '../../examples/notes-server/src/toolprep.gen.js';
import { REPO } from '../support/fixture-project.js';
import { propertyRuns } from '../support/property-runs.js';

/** `surfaceSnapshot` (decision 0045): the served listing as a text to review, the same for the same tools. */

const CONTRACTS: Record<string, ToolContract> = {
  readNote: defineTool({
    title: 'Read a note',
    description: 'Reads a note.',
    input: z.object({ path: z.string() }),
    output: z.object({ text: z.string() }),
    annotations: { readOnlyHint: true },
    meta: { 'example.com/owner': 'notes' },
  }),
  deleteNote: defineTool({
    description: 'Deletes notes.',
    input: z.object({ paths: z.array(z.string()).min(1) }),
  }),
  tagNotes: defineTool({
    description: 'Tags notes.\nEach tag is a word.',
    input: z.object({ tags: z.array(z.string()) }),
  }),
  search: defineTool({ description: 'Searches the notes.', input: z.object({ query: z.string().min(1) }) }),
};

/** A runtime over the contracts of these names, in this order. */
function runtimeOf(names: readonly string[]) {
  const contracts = Object.fromEntries(names.map((name) => [name, CONTRACTS[name] as ToolContract]));
  const toolSet = prepareToolSet(contracts);
  return createToolRuntime(toolSet, {
    handlers: Object.fromEntries(toolSet.prepared.map((tool) => [tool.name, () => 'done'])),
  });
}

test('each tool under its name, sorted, with its description, size and every other key of its entry', () => {
  expect(surfaceSnapshot(runtimeOf(['readNote', 'deleteNote']))).toBe(
    `# 2 tools, 716 bytes

## delete_note

Deletes notes.

bytes: 242
inputSchema: {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "paths": {
      "minItems": 1,
      "type": "array",
      "items": {
        "type": "string"
      }
    }
  },
  "required": [
    "paths"
  ]
}

## read_note

Reads a note.

bytes: 474
title: "Read a note"
inputSchema: {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "path": {
      "type": "string"
    }
  },
  "required": [
    "path"
  ]
}
outputSchema: {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "text": {
      "type": "string"
    }
  },
  "required": [
    "text"
  ],
  "additionalProperties": false
}
annotations: {
  "readOnlyHint": true
}
_meta: {
  "example.com/owner": "notes"
}
`,
  );
});

test('the same tools give the same text, whatever order their contracts come in', () => {
  const names = Object.keys(CONTRACTS);
  const sorted = (chosen: readonly string[]) => surfaceSnapshot(runtimeOf([...chosen].sort()));
  fc.assert(
    fc.property(fc.shuffledSubarray(names, { minLength: 1 }), (chosen) => {
      const text = surfaceSnapshot(runtimeOf(chosen));
      expect(text).toBe(sorted(chosen));
      expect(text).toMatch(new RegExp(`^# ${chosen.length} tools?, `));
    }),
    { numRuns: propertyRuns(30) },
  );
});

describe('with the manifest', () => {
  const manifest = JSON.parse(
    readFileSync(path.join(REPO, 'examples/notes-server/toolprep.manifest.json'), 'utf8'),
  );
  const example = createToolRuntime(exampleTools, { handlers: createHandlers(REPO) });

  test('each tool’s tokens as the build counted them, and its bytes as the manifest’s', () => {
    const text = surfaceSnapshot(example, { manifest });
    const { bytes, tokens } = manifest.totals;
    expect(text.split('\n')[0]).toBe(`# ${manifest.tools.length} tools, ${bytes} bytes, ${tokens} tokens`);
    for (const tool of manifest.tools)
      expect(text).toContain(
        `## ${tool.name}\n\n${tool.description}\n\nbytes: ${tool.size.bytes}\ntokens: ${tool.size.tokens}\n`,
      );
    // Without it, the same text less the tokens.
    expect(surfaceSnapshot(example)).toBe(
      text.replace(/\ntokens: \d+/g, '').replace(`, ${tokens} tokens`, ''),
    );
  });

  test.each([
    {
      change: 'a tool whose digest differs',
      manifest: () => ({
        ...manifest,
        tools: manifest.tools.map((tool: object, index: number) =>
          index === 0 ? { ...tool, digest: 'stale' } : tool,
        ),
      }),
      names: 'delete_notes',
    },
    {
      change: 'a tool the runtime does not serve',
      manifest: () => ({ ...manifest, tools: [...manifest.tools, { ...manifest.tools[0], name: 'gone' }] }),
      names: 'gone',
    },
    {
      change: 'a tool missing',
      manifest: () => ({ ...manifest, tools: manifest.tools.slice(1) }),
      names: 'delete_notes',
    },
  ])('a manifest of other tools is an error naming them: $change', ({ manifest: other, names }) => {
    expect(() => surfaceSnapshot(example, { manifest: other() })).toThrow(
      `[toolprep] the manifest does not describe the tools the runtime serves (${names}): run toolprep generate, or pass the manifest of the same build`,
    );
  });
});
