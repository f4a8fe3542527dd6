import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { describeSurfaceChanges } from '../../src/emit/surface-diff.js';
import type { Manifest, ManifestTool } from '../../src/manifest/manifest.js';

/** A manifest toolprep wrote (the example server's, committed), the committed side of each case. */
const committed = JSON.parse(
  readFileSync(new URL('../../examples/notes-server/toolprep.manifest.json', import.meta.url), 'utf8'),
) as Manifest;
const PATH_TEXT = 'A note path, relative to the notes folder, such as "ideas/today.md"';

const withTools = (tools: ManifestTool[]): Manifest => ({ ...committed, tools });
/** A copy of a JSON value with every string equal to `from` made `to`. */
const replaceText = <T>(value: T, from: string, to: string): T =>
  JSON.parse(JSON.stringify(value), (_key, item) => (item === from ? to : item)) as T;
/** `count` copies of the example's tools, each copy's tools renamed `<name>_<copy>`. */
function copies(count: number): Manifest {
  const tools = Array.from({ length: count }, (_, copy) =>
    committed.tools.map((tool) => ({
      ...tool,
      name: `${tool.name}_${copy}`,
      source: `${tool.source}${copy}`,
    })),
  ).flat();
  return withTools(tools.sort((a, b) => (a.name < b.name ? -1 : 1)));
}
const toolName = fc.stringMatching(/^[a-z][a-z0-9_]{0,20}$/);

describe('the changes of a surface, written once per change', () => {
  test('an unchanged surface has no changes', () => {
    expect(describeSurfaceChanges(committed, structuredClone(committed))).toEqual([]);
  });

  test('a renamed tool, its own name spelled anywhere in its entry, is only a rename (property)', () => {
    fc.assert(
      fc.property(fc.nat(committed.tools.length - 1), toolName, (index, name) => {
        const tool = committed.tools[index] as ManifestTool;
        fc.pre(!committed.tools.some((other) => other.name === name));
        const spelling = (as: string) => ({
          ...tool,
          name: as,
          description: `${as}: ${tool.description} (call ${as}.)`,
          digest: as,
          size: { bytes: as.length, tokens: 1 },
        });
        const before = withTools(
          committed.tools.map((other) => (other === tool ? spelling(tool.name) : other)),
        );
        const after = withTools(committed.tools.map((other) => (other === tool ? spelling(name) : other)));
        expect(describeSurfaceChanges(before, after)).toEqual([
          `~ tool ${tool.name} renamed to ${name} (a breaking change: clients and prompts call tools by name)`,
        ]);
      }),
    );
  });

  test('a description edited in any set of tools is one line naming exactly them, or the tool alone (property)', () => {
    const before = copies(12);
    const withPath = before.tools.filter((tool) =>
      JSON.stringify(tool).includes(JSON.stringify(PATH_TEXT).slice(1, -1)),
    );
    fc.assert(
      fc.property(
        fc.subarray(
          withPath.map((tool) => tool.name),
          { minLength: 1 },
        ),
        fc.string({ minLength: 1 }).filter((text) => text !== PATH_TEXT),
        (edited, text) => {
          const after = withTools(
            before.tools.map((tool) =>
              edited.includes(tool.name) ? replaceText(tool, PATH_TEXT, text) : tool,
            ),
          );
          const lines = describeSurfaceChanges(before, after);
          // Each edited tool makes one change (its `path`'s description, or inside its `paths`): named once,
          // under the change when another tool made it too, else under its own name.
          const heads = lines.filter((line) => !line.startsWith(' '));
          const named = heads.flatMap((head) =>
            head.startsWith('~ tool ') ? [head.slice(7)] : head.replace(/^.*? tools: /, '').split(', '),
          );
          expect(named.sort()).toEqual([...edited].sort());
          for (const head of heads.filter((line) => !line.startsWith('~ tool ')))
            expect(head).toMatch(/^~ field paths?: (description|schema) changed, in \d+ tools: /);
          const alone = heads.filter((head) => head.startsWith('~ tool ')).map((head) => head.slice(7));
          const kindOf = (name: string) =>
            Object.hasOwn(
              before.tools.find((tool) => tool.name === name)?.inputSchema.mcp.properties ?? {},
              'path',
            );
          expect(new Set(alone.map(kindOf)).size).toBe(alone.length);
        },
      ),
      { numRuns: 50 },
    );
  });

  test('a shared change shows the values once; the tools it names can be cut short', () => {
    const before = copies(10);
    const after = replaceText(before, PATH_TEXT, 'A path in the notes folder.');
    const lines = describeSurfaceChanges(before, after, { toolsNamed: 3, valueLength: 12 });
    const pathTools = before.tools
      .filter(
        (tool) =>
          (tool.inputSchema.mcp.properties as Record<string, { description?: string }>).path?.description ===
          PATH_TEXT,
      )
      .map((tool) => tool.name);
    expect(lines).toContain(
      `~ field path: description changed, in ${pathTools.length} tools: ${pathTools.slice(0, 3).join(', ')} and ${pathTools.length - 3} more`,
    );
    expect(lines).toContain(`    was ${JSON.stringify(PATH_TEXT).slice(0, 12)}…`);
    expect(lines).toContain('    now "A path in t…');
  });

  test.each([
    [
      'a tool added',
      (tools: ManifestTool[]) => tools.slice(1),
      (tools: ManifestTool[]) => tools,
      /^\+ tool delete_notes added/,
    ],
    [
      'a tool removed',
      (tools: ManifestTool[]) => tools,
      (tools: ManifestTool[]) => tools.slice(1),
      /^- tool delete_notes removed/,
    ],
    [
      'a tool moved to another file',
      (tools: ManifestTool[]) => tools,
      (tools: ManifestTool[]) =>
        tools.map((tool, index) => (index === 0 ? { ...tool, source: 'src/moved.ts#deleteNotes' } : tool)),
      /^ {4}~ source src\/tools\/notes\.ts#deleteNotes → src\/moved\.ts#deleteNotes$/,
    ],
    [
      'an annotation changed',
      (tools: ManifestTool[]) => tools,
      (tools: ManifestTool[]) =>
        tools.map((tool, index) => (index === 0 ? { ...tool, annotations: { readOnlyHint: true } } : tool)),
      /^ {4}~ annotations changed$/,
    ],
  ])('%s', (_case, before, after, line) => {
    const lines = describeSurfaceChanges(
      withTools(before(committed.tools as ManifestTool[])),
      withTools(after(committed.tools as ManifestTool[])),
    );
    expect(lines.some((text) => line.test(text))).toBe(true);
  });
});
