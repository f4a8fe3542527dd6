import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PreparedTool } from '../manifest/prepared-tool.js';
import { runtimeFor, type ToolRuntime } from '../runtime/runner.js';
import type { JsonSchema } from '../shared/json-schema/schema.js';
import { setOwn } from '../shared/run/own-property.js';
import { extensionOf, type MediaWriter, renderCliLines } from './tool-content.js';

export interface ToolCliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Where the media of a result (images, audio, embedded bytes) is written. Default: a new temporary folder. */
  readonly mediaDir?: string;
}

const processIo: ToolCliIo = {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
};

type Properties = Record<string, JsonSchema>;
const BOOLEAN_WORDS: Record<string, boolean> = {
  true: true,
  false: false,
  '1': true,
  '0': false,
  yes: true,
  no: false,
};

/**
 * A shell interface to the runtime's tools: `list`, `<tool> --help`, `<tool> --json '{...}'`, or
 * flags read from the prepared document (`--paths a --paths b`; numbers and booleans by their
 * declared kind). Every call goes through the runner. Resolves to the exit code: 0, or 1. A model
 * often drives a shell, so tools only a view may call (`visibility: ['app']`) are neither listed nor
 * called: they are unknown here, as on the provider surfaces.
 */
export async function runToolCli(
  base: ToolRuntime,
  argv: readonly string[],
  io: ToolCliIo = processIo,
): Promise<number> {
  const [command, ...rest] = argv;
  const runtime = runtimeFor(base, { model: true });
  const tools = runtime.list();
  if (command === undefined || command === 'help' || command === '--help') {
    io.stdout(
      `Usage: <command> list | <tool> --help | <tool> --json '{...}' | <tool> --<field> <value> ...\n\nTools: ${tools.map((tool) => tool.name).join(', ')}`,
    );
    return command === undefined ? 1 : 0;
  }
  if (command === 'list') {
    const width = Math.max(...tools.map((tool) => tool.name.length));
    for (const tool of tools) io.stdout(`${tool.name.padEnd(width)}  ${tool.description.split('\n')[0]}`);
    return 0;
  }
  const tool = tools.find((candidate) => candidate.name === command);
  if (!tool) {
    io.stderr(
      `Unknown tool "${command}". Available tools: ${tools.map((candidate) => candidate.name).join(', ')}.`,
    );
    return 1;
  }
  if (rest.includes('--help')) {
    io.stdout(describeTool(tool));
    return 0;
  }
  let args: unknown;
  try {
    args = rest[0] === '--json' ? parseJsonFlag(rest[1]) : parseFlags(tool, rest);
  } catch (error) {
    io.stderr(`${(error as Error).message}\nRun \`${tool.name} --help\` for its options.`);
    return 1;
  }
  const result = await runtime.call(tool.name, args);
  if (!result.ok) {
    io.stderr(result.error.message);
    return 1;
  }
  // Text as it is; media written to files, saying where; structured content and values as JSON.
  for (const line of renderCliLines(result.value, mediaFiles(tool.name, io))) io.stdout(line);
  return 0;
}

/** Writes each part's media to a file (in `mediaDir`, or a new temporary folder), and says where. */
function mediaFiles(tool: string, io: ToolCliIo): MediaWriter {
  let folder = io.mediaDir;
  return ({ data, mimeType }, index) => {
    folder ??= mkdtempSync(path.join(tmpdir(), `${tool}-`));
    mkdirSync(folder, { recursive: true });
    const file = path.join(folder, `${tool}-${index + 1}.${extensionOf(mimeType)}`);
    writeFileSync(file, Buffer.from(data, 'base64'));
    return `[${mimeType} written to ${file}]`;
  };
}

function parseJsonFlag(text: string | undefined): unknown {
  if (text === undefined)
    throw new Error('--json needs the arguments as JSON: --json \'{"field": "value"}\'');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`--json: not valid JSON (${(error as Error).message})`);
  }
}

function propertiesOf(tool: PreparedTool): Properties {
  return (tool.inputSchema.mcp.properties ?? {}) as Properties;
}

/** The JSON kinds a field takes, from its `type`, `const`, `enum` or union branches. */
function kindsOf(schema: JsonSchema): Set<string> {
  if (typeof schema.type === 'string') return new Set([schema.type]);
  if (Array.isArray(schema.type)) return new Set(schema.type as string[]);
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (branches) return new Set(branches.flatMap((branch) => [...kindsOf(branch)]));
  const values = 'const' in schema ? [schema.const] : ((schema.enum as unknown[] | undefined) ?? []);
  return new Set(values.map((value) => (typeof value === 'number' ? 'number' : typeof value)));
}

function parseFlags(tool: PreparedTool, words: readonly string[]): Record<string, unknown> {
  const properties = propertiesOf(tool);
  const args: Record<string, unknown> = {};
  for (let index = 0; index < words.length; index++) {
    const word = words[index] as string;
    if (!word.startsWith('--')) throw new Error(`Unexpected "${word}": give each value after its --field`);
    const [name, inline] = word.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    const schema = properties[name];
    if (!schema)
      throw new Error(
        `Unknown option --${name} for ${tool.name}. Options: ${Object.keys(properties)
          .map((key) => `--${key}`)
          .join(', ')}`,
      );
    const kinds = kindsOf(schema);
    const next = words[index + 1];
    let text = inline;
    if (text === undefined && kinds.has('boolean') && (next === undefined || next.startsWith('--')))
      text = 'true';
    if (text === undefined) {
      if (next === undefined) throw new Error(`--${name} needs a value`);
      text = next;
      index++;
    }
    const value = readValue(name, text, kinds);
    // A repeated flag makes a list; a field that takes one value or a list takes either.
    // Set as own keys: a flag named --__proto__ is a field, never the arguments' prototype.
    if (Object.hasOwn(args, name)) setOwn(args, name, [args[name], value].flat());
    else setOwn(args, name, kinds.has('array') && !kinds.has('string') ? [value] : value);
  }
  return args;
}

function readValue(name: string, text: string, kinds: Set<string>): unknown {
  if (kinds.has('string') || kinds.size === 0) return text;
  if (kinds.has('boolean') && text.toLowerCase() in BOOLEAN_WORDS) return BOOLEAN_WORDS[text.toLowerCase()];
  if (kinds.has('number') || kinds.has('integer')) {
    const number = Number(text);
    if (text.trim() === '' || Number.isNaN(number))
      throw new Error(`--${name} takes a number, not "${text}"`);
    return number;
  }
  if (kinds.has('boolean')) throw new Error(`--${name} takes true/false/1/0/yes/no, not "${text}"`);
  // Objects and lists of objects go as JSON text: the tool's plan parses them where it wants structure.
  return text;
}

function describeTool(tool: PreparedTool): string {
  const required = new Set((tool.inputSchema.mcp.required ?? []) as string[]);
  const lines = [`${tool.name}: ${tool.description}`, '', 'Options:'];
  for (const [name, schema] of Object.entries(propertiesOf(tool))) {
    const kinds = [...kindsOf(schema)].join(' | ') || 'any';
    const values = Array.isArray(schema.enum) ? ` (${(schema.enum as unknown[]).join(', ')})` : '';
    const fallback = 'default' in schema ? ` [default: ${JSON.stringify(schema.default)}]` : '';
    const description = typeof schema.description === 'string' ? `  ${schema.description}` : '';
    lines.push(
      `  --${name} <${kinds}>${values}${required.has(name) ? ' (required)' : ''}${fallback}${description}`,
    );
  }
  lines.push('', `Or pass every field at once: ${tool.name} --json '{...}'`);
  return lines.join('\n');
}
