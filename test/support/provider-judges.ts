import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { betaTool } from '@anthropic-ai/sdk/helpers/beta/json-schema';
import { transformJSONSchema } from '@anthropic-ai/sdk/lib/transform-json-schema';
import { GoogleGenAI } from '@google/genai';
import { toStrictJsonSchema } from 'openai/lib/transform';
import { PROFILE_NAMES, type ProfileName } from '../../src/manifest/profiles.js';
import type { JsonSchema } from '../../src/shared/json-schema/schema.js';
import { walkSchema } from '../../src/shared/json-schema/walk.js';
import { type Difference, describeDifference, differencesOf, pointerOf } from './json-differences.js';
import type { JudgedProject } from './judged-projects.js';

/**
 * The providers' own code that decides what is sent for a tool's parameters, each run on one
 * profile document: what the provider would send, or the error it refuses the document with.
 * Functions a package does not export are reached by their file, or through the package's public
 * path with an injected `fetch` that captures the request (no network).
 */

/** `@openai/agents-core`'s strict-schema module (dist/utils/strictToolSchema.mjs, not exported). */
export interface AgentsStrictToolSchema {
  /** What an agent sends for a JSON-schema tool with `strict: true`, and how it reads the answers. */
  prepareOpenAIStrictToolSchema(schema: unknown): {
    readonly schema: JsonSchema;
    normalizeInput(value: unknown): unknown;
  };
  /** The same strict schema, without refusing unions it cannot normalise (its Zod tools' path). */
  toOpenAIStrictToolSchema(schema: unknown): JsonSchema;
  /** How an agent reads the answer for a Zod tool with `strict: true`, before the Zod parse. */
  stripStrictNullsForZodSchema(schema: unknown, value: unknown): unknown;
}

export const agentsStrict = (await import(
  new URL('../../node_modules/@openai/agents-core/dist/utils/strictToolSchema.mjs', import.meta.url).href
)) as AgentsStrictToolSchema;

interface JudgedTool {
  readonly name: string;
  readonly description: string;
  readonly document: JsonSchema;
}

interface ProviderJudge {
  /** The package and its function. */
  readonly name: string;
  readonly profiles: readonly ProfileName[];
  /** What the provider sends as the tool's parameters; throws where it refuses the document. */
  send(tool: JudgedTool): Promise<unknown>;
}

/** A `fetch` that keeps each request's JSON body and answers `answer`. */
function capturingFetch(answer: unknown) {
  const bodies: Record<string, unknown>[] = [];
  const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    bodies.push(JSON.parse(String(init?.body ?? '{}')));
    return new Response(JSON.stringify(answer), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetch, bodies };
}

const GEMINI_ANSWER = {
  candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }],
};

type Declaration = Record<string, unknown>;

function onlyDeclaration(bodies: readonly Record<string, unknown>[]): Declaration {
  const tools = bodies[0]?.tools as { functionDeclarations?: Declaration[] }[] | undefined;
  const declaration = tools?.[0]?.functionDeclarations?.[0];
  if (!declaration) throw new Error('no function declaration was sent');
  return declaration;
}

/**
 * `@google/genai`'s request path, `models.generateContent`: its `tTool` runs `processJsonSchema` on
 * `parameters` (a document without `$schema`) and leaves `parametersJsonSchema` as it is, then
 * the field mapping for the API. Both are private to the bundled dist/node/index.mjs, so they are
 * reached through the public call.
 */
async function genaiSends(tool: JudgedTool, field: 'parameters' | 'parametersJsonSchema'): Promise<unknown> {
  const { fetch, bodies } = capturingFetch(GEMINI_ANSWER);
  const client = new GoogleGenAI({ apiKey: 'test', httpOptions: { fetch } });
  await client.models.generateContent({
    model: 'gemini-test',
    contents: 'Go.',
    config: {
      tools: [
        {
          functionDeclarations: [
            { name: tool.name, description: tool.description, [field]: structuredClone(tool.document) },
          ],
        },
      ],
    },
  });
  return onlyDeclaration(bodies)[field];
}

/**
 * The AI SDK's Google provider, given the document as a tool's JSON Schema (what `toolprep/ai`
 * hands it with a Gemini profile): its `prepareTools` converts it with
 * `convertJSONSchemaToOpenAPISchema` into `parameters`, or sends it as `parametersJsonSchema`
 * where that refuses recursion. Both are private to the bundled dist/index.mjs, so they are
 * reached through the model's public `doGenerate`.
 */
async function aiSdkGoogleSends(tool: JudgedTool): Promise<unknown> {
  const { fetch, bodies } = capturingFetch(GEMINI_ANSWER);
  const model = createGoogleGenerativeAI({ apiKey: 'test', fetch }).languageModel('gemini-2.5-flash');
  await model.doGenerate({
    prompt: [{ role: 'user', content: [{ type: 'text', text: 'Go.' }] }],
    tools: [
      {
        type: 'function',
        name: tool.name,
        description: tool.description,
        inputSchema: structuredClone(tool.document) as never,
      },
    ],
  });
  const declaration = onlyDeclaration(bodies);
  return declaration.parameters ?? declaration.parametersJsonSchema;
}

const PROVIDER_JUDGES: readonly ProviderJudge[] = [
  {
    name: 'openai toStrictJsonSchema',
    profiles: ['openai-strict'],
    send: async ({ document }) => toStrictJsonSchema(document as never),
  },
  // What `tool({ parameters, strict: true })` runs for a JSON-schema tool, as toolprep/openai-agents makes.
  {
    name: '@openai/agents prepareOpenAIStrictToolSchema',
    profiles: ['openai-strict'],
    send: async ({ document }) => agentsStrict.prepareOpenAIStrictToolSchema(document).schema,
  },
  {
    name: '@openai/agents toOpenAIStrictToolSchema',
    profiles: ['openai-strict'],
    send: async ({ document }) => agentsStrict.toOpenAIStrictToolSchema(document),
  },
  // The SDK sends a tool's `input_schema` as given, strict or not, once its root is an object.
  {
    name: '@anthropic-ai/sdk betaTool',
    profiles: ['anthropic', 'anthropic-strict'],
    send: async ({ name, description, document }) =>
      (
        betaTool({ name, description, inputSchema: document as never, run: () => '' }) as {
          input_schema: unknown;
        }
      ).input_schema,
  },
  // The SDK's own reading of what strict (grammar-constrained) schemas take.
  {
    name: '@anthropic-ai/sdk transformJSONSchema',
    profiles: ['anthropic-strict'],
    send: async ({ document }) => transformJSONSchema(document),
  },
  {
    name: '@google/genai parametersJsonSchema',
    profiles: ['gemini'],
    send: (tool) => genaiSends(tool, 'parametersJsonSchema'),
  },
  {
    name: '@google/genai parameters',
    profiles: ['gemini-openapi'],
    send: (tool) => genaiSends(tool, 'parameters'),
  },
  {
    name: '@ai-sdk/google prepareTools',
    profiles: ['gemini', 'gemini-openapi'],
    send: aiSdkGoogleSends,
  },
];

/** A difference between a document and what a provider sends, with the keyword it is at. */
export interface DocumentDifference extends Difference {
  /** The keyword of the schema node the difference is in: `type`, `enum`, `nullable`. */
  readonly keyword?: string;
}

/** A difference between a document and what a judge sends that a table lists, with why. */
export interface ListedDifference {
  readonly judge: string;
  readonly profiles: readonly ProfileName[];
  readonly what: string;
  readonly covers: (difference: DocumentDifference) => boolean;
}

export interface Judged {
  /** Documents judged, by profile. */
  readonly documents: Map<ProfileName, number>;
  /** Differences no row lists, and refusals: each names the judge, tool, profile and path. */
  readonly unlisted: Map<ProfileName, string[]>;
  readonly used: Set<ListedDifference>;
}

/**
 * Every profile document of the projects' tools, through each judge of its profile: what is sent
 * must be the document, or differ only by rows of `listed`.
 */
export async function judgeDocuments(
  projects: readonly JudgedProject[],
  listed: readonly ListedDifference[],
): Promise<Judged> {
  const judged: Judged = {
    documents: new Map(PROFILE_NAMES.map((profile) => [profile, 0])),
    unlisted: new Map(PROFILE_NAMES.map((profile) => [profile, []])),
    used: new Set(),
  };
  for (const { name: project, tools } of projects)
    for (const tool of tools)
      for (const profile of PROFILE_NAMES) {
        const entry = tool.profiles?.[profile];
        // A tool that falls back is sent as its fallback, not as this profile: not this one's judges'.
        if (!entry || entry.fallback) continue;
        const document = entry.inputSchema;
        judged.documents.set(profile, (judged.documents.get(profile) ?? 0) + 1);
        const unlisted = judged.unlisted.get(profile) as string[];
        for (const judge of PROVIDER_JUDGES.filter((each) => each.profiles.includes(profile))) {
          const where = `${judge.name}: tool "${tool.name}" (${project}), profile ${profile}`;
          let sent: unknown;
          try {
            sent = await judge.send({ name: tool.name, description: tool.description, document });
          } catch (error) {
            unlisted.push(`${where}: refused: ${(error as Error).message}`);
            continue;
          }
          for (const difference of documentDifferences(document, sent)) {
            const row = listed.find(
              (each) =>
                each.judge === judge.name && each.profiles.includes(profile) && each.covers(difference),
            );
            if (row) judged.used.add(row);
            else unlisted.push(`${where}, ${describeDifference(difference)}`);
          }
        }
      }
  return judged;
}

/**
 * The differences between a document and what was sent, each with its keyword: the step after the
 * deepest schema node of the document its path goes through (a property named `default` is no
 * keyword; the `default` of that property is).
 */
function documentDifferences(document: JsonSchema, sent: unknown): DocumentDifference[] {
  const nodes = new Set<string>();
  walkSchema(document, (_node, place) => {
    nodes.add(pointerOf(place.path));
  });
  return differencesOf(document, sent).map((difference) => {
    for (let length = difference.path.length - 1; length >= 0; length--)
      if (nodes.has(pointerOf(difference.path.slice(0, length)))) {
        const keyword = difference.path[length];
        return typeof keyword === 'string' ? { ...difference, keyword } : difference;
      }
    return difference;
  });
}
