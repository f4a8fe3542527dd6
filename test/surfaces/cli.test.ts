import { prepareToolSet } from '@toolprep/build';
import { defineTool } from 'toolprep';
import { runToolCli } from 'toolprep/cli';
import { createToolRuntime } from 'toolprep/runtime';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

const readNotes = defineTool({
  description: 'Read one note or several.',
  input: z.object({
    paths: z.union([z.string(), z.array(z.string())]).describe('A path, or a list of paths'),
    lines: z.number().int().optional(),
    raw: z.boolean().default(false),
    format: z.enum(['text', 'json']).default('text'),
    options: z.object({ wrap: z.number() }).optional(),
  }),
});
const tagNotes = defineTool({
  description: 'Tag notes.',
  input: z.object({ tags: z.array(z.string()).min(1) }),
});
const runtime = createToolRuntime(prepareToolSet({ readNotes, tagNotes }), {
  handlers: {
    read_notes: (args: unknown) => args,
    tag_notes: ({ tags }: { tags: string[] }) => `tagged ${tags.join(', ')}`,
  },
});

async function run(...argv: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runToolCli(runtime, argv, {
    stdout: (text) => stdout.push(text),
    stderr: (text) => stderr.push(text),
  });
  return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
}

describe('runToolCli', () => {
  test('list shows each tool with its description', async () => {
    expect(await run('list')).toEqual({
      code: 0,
      stdout: 'read_notes  Read one note or several.\ntag_notes   Tag notes.',
      stderr: '',
    });
  });

  test('<tool> --help is read from the prepared document', async () => {
    const { code, stdout } = await run('read_notes', '--help');
    expect(code).toBe(0);
    expect(stdout).toContain('  --paths <string | array> (required)  A path, or a list of paths');
    expect(stdout).toContain('  --format <string> (text, json) [default: "text"]');
    expect(stdout).toContain('  --raw <boolean> [default: false]');
  });

  test.each<[string, string[], unknown]>([
    ['one value for a one-or-list field', ['--paths', 'a.md'], { paths: 'a.md', raw: false, format: 'text' }],
    [
      'a repeated flag makes a list',
      ['--paths', 'a.md', '--paths', 'b.md'],
      { paths: ['a.md', 'b.md'], raw: false, format: 'text' },
    ],
    [
      'numbers by their declared kind, --name=value form',
      ['--paths', 'a', '--lines=3'],
      { paths: 'a', lines: 3, raw: false, format: 'text' },
    ],
    ['a bare boolean flag is true', ['--paths', 'a', '--raw'], { paths: 'a', raw: true, format: 'text' }],
    ['booleans as yes/no/1/0', ['--paths', 'a', '--raw', 'no'], { paths: 'a', raw: false, format: 'text' }],
    [
      'an object as JSON text, repaired by the plan',
      ['--paths', 'a', '--options', '{"wrap":80}'],
      { paths: 'a', raw: false, format: 'text', options: { wrap: 80 } },
    ],
    [
      '--json for every field at once',
      ['--json', '{"paths":["a","b"],"lines":2}'],
      { paths: ['a', 'b'], lines: 2, raw: false, format: 'text' },
    ],
  ])('%s', async (_case, flags, expected) => {
    const { code, stdout } = await run('read_notes', ...flags);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(expected);
  });

  test('a list flag with one value is still a list', async () => {
    expect(await run('tag_notes', '--tags', 'work')).toMatchObject({ code: 0, stdout: 'tagged work' });
  });

  test.each<[string, string[], string]>([
    [
      'a list written as text is refused',
      ['read_notes', '--paths', '["a.md","b.md"]'],
      'paths is a list written as text — pass the array itself, not JSON written as text',
    ],
    [
      'an invalid value is a validation error',
      ['read_notes', '--paths', 'a', '--format', 'xml'],
      'Invalid arguments: "format" must be one of "text", "json" (got "xml")',
    ],
    ['a missing field', ['read_notes'], 'Invalid arguments: "paths" is required: a string or string[]'],
    ['a number flag with text', ['read_notes', '--lines', 'three'], '--lines takes a number, not "three"'],
    [
      'an unknown flag',
      ['read_notes', '--path', 'a'],
      'Unknown option --path for read_notes. Options: --paths, --lines, --raw, --format, --options',
    ],
    ['bad JSON', ['read_notes', '--json', '{paths'], '--json: not valid JSON'],
    [
      'an unknown tool',
      ['write_notes'],
      'Unknown tool "write_notes". Available tools: read_notes, tag_notes.',
    ],
  ])('%s: exit 1, the message on stderr', async (_case, argv, message) => {
    const { code, stdout, stderr } = await run(...argv);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
  });
});
