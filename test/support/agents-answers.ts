import type { ManifestTool } from '@toolprep/build';
import type { z } from 'zod';
import { INVERSE_STEPS, type InverseStep } from '../../src/manifest/profiles.js';
import { isRecord } from '../../src/shared/run/is-record.js';
import { splitKeys } from '../../src/shared/run/own-property.js';
import { walkGenerated } from './generated-walk.js';
import { type Difference, describeDifference, differencesOf } from './json-differences.js';
import type { JudgedProject } from './judged-projects.js';
import { agentsStrict } from './provider-judges.js';
import { type FieldShown, fieldShownAt, strictAnswers } from './strict-answers.js';

/**
 * What runs on a model's answer for a strict tool in @openai/agents 0.20 (agents-core's
 * dist/utils/tools.mjs and mcp.mjs): a Zod tool with `strict: true` parses
 * `stripStrictNullsForZodSchema(schema, answer)` with its schema; a JSON-schema tool with
 * `strict: true`, and an MCP tool under `convertSchemasToStrict`, runs the `normalizeInput` that
 * `prepareOpenAIStrictToolSchema(schema)` returns and hands the tool what it gives: for an MCP
 * tool, the MCP server, which runs the plan without inverse steps and then the contract's parser.
 */
type Handler = 'agents Zod tool' | 'agents MCP tool';

/** How the handler's arguments compare on one answer, toolprep's against the agents SDK's. */
type Relation =
  | 'the same arguments'
  | 'both refuse'
  | 'agents refuses'
  | 'toolprep refuses'
  | 'other arguments';

/** A difference in the arguments that a table lists, with why. */
export interface InverseListed {
  readonly handler: Handler;
  readonly what: string;
  /** What the handler gets where the row covers a difference: checked on every answer. */
  readonly relations: readonly Relation[];
  /** Which difference (toolprep's arguments → the SDK's) it covers, by the field the MCP document shows. */
  readonly covers: (difference: Difference, field: FieldShown) => boolean;
}

export interface Answered {
  answers: number;
  /** Differences no row lists, each naming the handler, tool, path and answer. */
  readonly unlisted: string[];
  readonly used: Set<InverseListed>;
  /** The keyword of each MCP document agents refuses, or the whole refusal where it is not listed. */
  readonly refusedDocuments: string[];
}

type Outcome = { readonly value: unknown } | { readonly refused: string };

interface LoadedContract {
  readonly input?: unknown;
  readonly params?: unknown;
}

/**
 * The answers a model may send for each `openai-strict` document (`strictAnswers`), through
 * toolprep's plan with the profile's inverse steps and through each agents handler: every
 * difference in the arguments must be a row of `listed` whose relation holds on that answer. Also:
 * the agents tool toolprep/openai-agents makes (the openai-strict document, `strict: true`) must
 * pass each answer on unchanged, and an MCP document agents refuses must be for a keyword of
 * `refusedKeywords`.
 */
export async function answerStrictTools(
  projects: readonly JudgedProject[],
  listed: readonly InverseListed[],
  refusedKeywords: readonly string[],
): Promise<Answered> {
  const answered: Answered = { answers: 0, unlisted: [], used: new Set(), refusedDocuments: [] };
  for (const project of projects)
    for (const tool of project.tools) {
      const entry = tool.profiles?.['openai-strict'];
      // A tool that falls back is sent with `strict: false`: agents' strict path does not see it.
      if (!entry || entry.fallback) continue;
      const document = entry.inputSchema;
      const where = `tool "${tool.name}" (${project.name})`;
      const contract = (await project.contractOf(tool)) as LoadedContract;
      const surface = agentsStrict.prepareOpenAIStrictToolSchema(document);
      let mcpTool: ReturnType<typeof agentsStrict.prepareOpenAIStrictToolSchema> | undefined;
      try {
        mcpTool = agentsStrict.prepareOpenAIStrictToolSchema(tool.inputSchema.mcp);
      } catch (error) {
        const { message } = error as Error;
        const keyword = /unsupported keyword `([^`]+)`/.exec(message)?.[1] ?? '';
        answered.refusedDocuments.push(refusedKeywords.includes(keyword) ? keyword : `${where}: ${message}`);
      }
      for (const answer of strictAnswers(document)) {
        answered.answers++;
        // Every key of the openai-strict document is required: agents' normalizeInput must pass
        // the answer on as the model sent it, for the inverse steps to see it.
        const passed = surface.normalizeInput(answer);
        if (differencesOf(answer, passed).length > 0)
          answered.unlisted.push(
            `${where}: agents changed an answer to the openai-strict document: ${JSON.stringify(answer)} → ${JSON.stringify(passed)}`,
          );
        const ours = walked(tool, answer, INVERSE_STEPS['openai-strict']);
        const oursHanded = handlerArguments(contract, tool, ours);
        const viaZod = agentsZodArguments(contract, tool, answer);
        const theirs: [Handler, Outcome, Outcome][] = [
          ['agents Zod tool', viaZod, handlerArguments(contract, tool, viaZod)],
        ];
        if (mcpTool) {
          const normalized = mcpTool.normalizeInput(answer);
          theirs.push([
            'agents MCP tool',
            { value: normalized },
            handlerArguments(contract, tool, walked(tool, normalized)),
          ]);
        }
        for (const [handler, args, handed] of theirs) {
          const relation = relationOf(oursHanded, handed);
          for (const difference of differencesOf(shownAs(ours), shownAs(args))) {
            const field = fieldShownAt(tool.inputSchema.mcp, difference.path);
            const row = listed.find(
              (each) =>
                each.handler === handler &&
                each.relations.includes(relation) &&
                each.covers(difference, field),
            );
            if (row) answered.used.add(row);
            else
              answered.unlisted.push(
                `${handler}: ${where}, profile openai-strict, ${describeDifference(difference)} (${relation}), answer ${JSON.stringify(answer)}`,
              );
          }
        }
      }
    }
  return answered;
}

/** The arguments after the plan's walk, or its refusal. */
function walked(tool: ManifestTool, answer: unknown, inverse?: readonly InverseStep[]): Outcome {
  try {
    return { value: walkGenerated(tool.plan, answer, { inverse }) };
  } catch (error) {
    return { refused: (error as Error).message };
  }
}

/** What the tool's handler gets: the contract's parse of its params and its input, or a refusal. */
function handlerArguments(contract: LoadedContract, tool: ManifestTool, args: Outcome): Outcome {
  if ('refused' in args) return args;
  if (!isRecord(args.value)) return { refused: 'no object' };
  const { picked, rest } = splitKeys(args.value, tool.params ?? []);
  let parsed = {};
  for (const [schema, part] of [
    [contract.params, picked],
    [contract.input, rest],
  ] as const) {
    if (!schema) continue;
    const result = (schema as z.ZodType).safeParse(part);
    if (!result.success) return { refused: result.error.message };
    parsed = { ...parsed, ...(result.data as object) };
  }
  return { value: parsed };
}

/** Agents' handling of the answer for its own Zod tool: params and input, each by its schema. */
function agentsZodArguments(contract: LoadedContract, tool: ManifestTool, answer: unknown): Outcome {
  const { picked, rest } = splitKeys(answer as Record<string, unknown>, tool.params ?? []);
  const strip = (schema: unknown, part: unknown) =>
    schema ? (agentsStrict.stripStrictNullsForZodSchema(schema, part) as object) : {};
  return { value: { ...strip(contract.params, picked), ...strip(contract.input, rest) } };
}

/** The arguments of an outcome, or its refusal, for comparing. */
const shownAs = (outcome: Outcome): unknown => ('value' in outcome ? outcome.value : outcome);

function relationOf(ours: Outcome, theirs: Outcome): Relation {
  if ('refused' in ours) return 'refused' in theirs ? 'both refuse' : 'toolprep refuses';
  if ('refused' in theirs) return 'agents refuses';
  return differencesOf(ours.value, theirs.value).length === 0 ? 'the same arguments' : 'other arguments';
}
