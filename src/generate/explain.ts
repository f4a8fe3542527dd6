import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import { builderOf } from '../adapters/builders.js';
import { issuePath } from '../adapters/issue-path.js';
import { libraryOf } from '../adapters/libraries.js';
import type { RuntimeAdapter, SchemaBuilder } from '../adapters/types.js';
import { type PrepareSettings, prepareSettingsOf } from '../config/options.js';
import { isToolContract } from '../contract/define-tool.js';
import type { ToolContract } from '../contract/types.js';
import { type ContractRef, findContracts } from '../discover/find-contracts.js';
import { loadModules } from '../load/load-modules.js';
import type { PreparedTool } from '../manifest/prepared-tool.js';
import { prepareTool } from '../prepare/prepare-tool.js';
import { type Problem, ToolprepError } from '../shared/build/problems.js';
import type { JsonSchema } from '../shared/json-schema/schema.js';
import { isRecord } from '../shared/run/is-record.js';
import { getOwn, splitKeys } from '../shared/run/own-property.js';
import { contractAt, defaultNameOf } from './prepare-files.js';
import { type ProjectOptions, resolveProject } from './project.js';
import { documentedValues } from './sample-values.js';
import { createGeneratorState } from './state.js';

/** A value a tool's document describes that its own parser refuses: a rule the model cannot see. */
export interface HiddenConstraint {
  readonly tool: string;
  readonly file: string;
  readonly line: number;
  /** `input.path`, `input` for a rule across fields. */
  readonly field: string;
  /** The shortest such value found. */
  readonly counterexample: unknown;
  readonly message: string;
  /** The field's description says something already: reported as information. */
  readonly described: boolean;
}

export interface Explanation {
  readonly findings: readonly HiddenConstraint[];
  /** A document of toolprep's that refuses a value its contract accepts (`superset-violated`). */
  readonly problems: readonly Problem[];
  readonly tools: number;
  readonly samples: number;
  /** Values the contracts accepted, each validated against every document of its tool. */
  readonly proven: number;
  /** Tools whose time budget ran out before every value was tried. */
  readonly outOfTime: readonly string[];
  readonly milliseconds: number;
}

export interface ExplainOptions extends ProjectOptions {
  /** The time each tool's values may take, in milliseconds. Default 250. */
  readonly milliseconds?: number;
}

/** At most this many values are tried per tool and per source: the pass stays a few milliseconds per tool. */
const SAMPLES_PER_TOOL = 400;

/**
 * One pass over each tool's values, deterministic (they are chosen from documents, not drawn at
 * random) and bounded by a time budget per tool:
 * - hidden constraints: values its presentation document describes (per union variant: sampled
 *   from the unflattened document, so no two variants' fields are mixed), each parsed with the
 *   contract's own parser; every field where a documented value is refused is reported with the
 *   shortest counterexample and the parser's message;
 * - the superset: values the contract accepts, sampled from its library's own JSON Schema of it
 *   and the unflattened document, each validated against every document toolprep emits for the
 *   tool; a refusal is a bug in toolprep, and a problem.
 */
export async function explainProject(options: ExplainOptions): Promise<Explanation> {
  const budget = options.milliseconds ?? 250;
  const started = performance.now();
  const project = await resolveProject(options, createGeneratorState());
  const { root, config } = project;
  const { refs } = findContracts(root, project.files);
  const files = [...new Set(refs.map((ref) => ref.file))];
  const loaded = await loadModules(root, files, project.cacheDir);
  if (!loaded.ok)
    return {
      findings: [],
      problems: loaded.failures.map(
        (failure): Problem => ({
          severity: 'error',
          code: 'build-failed',
          ...failure,
          message: `could not be built: ${failure.message}`,
        }),
      ),
      tools: 0,
      samples: 0,
      proven: 0,
      outOfTime: [],
      milliseconds: performance.now() - started,
    };
  const findings: HiddenConstraint[] = [];
  const problems: Problem[] = [];
  const outOfTime: string[] = [];
  let tools = 0;
  let samples = 0;
  let proven = 0;
  for (const ref of refs) {
    const exports = loaded.modules.get(ref.file)?.exports;
    const contract = exports && contractAt(exports, ref);
    if (!isToolContract(contract)) continue;
    const explained = await explainTool(contract, ref, prepareSettingsOf(config), {
      milliseconds: budget,
      prove: true,
    });
    if (!explained) continue;
    tools++;
    findings.push(...explained.findings);
    problems.push(...explained.problems);
    samples += explained.samples;
    proven += explained.proven;
    if (explained.outOfTime) outOfTime.push(explained.tool);
  }
  return { findings, problems, tools, samples, proven, outOfTime, milliseconds: performance.now() - started };
}

/**
 * One tool's pass: its hidden constraints and, with `prove`, the superset on its documents. The
 * tool as the generator prepared it may be given, so that it is not prepared again.
 */
export async function explainTool(
  contract: ToolContract,
  ref: ContractRef,
  prepareSettings: PrepareSettings,
  { milliseconds, prove }: { readonly milliseconds: number; readonly prove: boolean },
  prepared?: PreparedTool,
): Promise<
  | {
      readonly tool: string;
      readonly findings: HiddenConstraint[];
      readonly problems: Problem[];
      readonly samples: number;
      readonly proven: number;
      readonly outOfTime: boolean;
    }
  | undefined
> {
  if (contract.input === undefined) return undefined;
  const settings = { ...prepareSettings, exportName: defaultNameOf(ref), description: ref.jsdoc };
  // The contract's own documents: extension keys are another schema's, parsed by it.
  const own = { ...settings, extend: undefined };
  let shown: PreparedTool;
  let document: JsonSchema;
  let emitted: PreparedTool | undefined;
  try {
    shown = prepared ?? prepareTool(contract, settings);
    // Prepared again only where it differs: the proof needs every emitted document of its own.
    if (prove) emitted = settings.extend ? prepareTool(contract, own) : shown;
    document =
      settings.flatten || settings.extend
        ? prepareTool(contract, { ...own, flatten: false, profiles: [] }).inputSchema.mcp
        : shown.inputSchema.mcp;
  } catch (error) {
    // A contract that cannot be prepared is `generate`'s to report.
    if (error instanceof ToolprepError) return undefined;
    throw error;
  }
  const { name } = shown;
  const parts = partsOf(contract);
  if (!parts) return undefined;
  const deadline = performance.now() + milliseconds;
  let samples = 0;
  let proven = 0;
  const problems: Problem[] = [];
  const verdicts = new Map<string, Awaited<ReturnType<typeof refusalOfCall>> | 'accepted'>();
  const verdictOn = async (value: unknown) => {
    const key = JSON.stringify(value);
    let verdict = verdicts.get(key);
    if (verdict === undefined) {
      samples++;
      verdict = (await refusalOfCall(parts, shown.params ?? [], value)) ?? 'accepted';
      verdicts.set(key, verdict);
    }
    return verdict;
  };
  const byField = new Map<string, HiddenConstraint>();
  let timedOut = false;
  const described = documentedValues(document);
  for (const sample of described.slice(0, SAMPLES_PER_TOOL)) {
    if (performance.now() > deadline) {
      timedOut = true;
      break;
    }
    const refusal = await verdictOn(sample.value);
    if (refusal === 'accepted') continue;
    // An issue names its field (none: a rule across the object's fields); a throw names none, so
    // the field the value varied is the one to blame.
    const at = refusal.thrown ? sample.path : refusal.path;
    const field = [refusal.root, ...at].join('.');
    const known = byField.get(field);
    if (known && JSON.stringify(known.counterexample).length <= JSON.stringify(sample.value).length) continue;
    byField.set(field, {
      tool: name,
      file: ref.file,
      line: ref.line,
      field,
      counterexample: sample.value,
      message: refusal.message,
      described: describedAt(document, at),
    });
  }

  // The values the contract accepts, from its libraries' own JSON Schema of it and from the
  // unflattened document (whose values are parsed already).
  if (emitted) {
    const accepted: unknown[] = [];
    for (const value of [
      ...ownValues(parts).slice(0, SAMPLES_PER_TOOL),
      ...described.map((sample) => sample.value),
    ]) {
      if (performance.now() > deadline) {
        timedOut = true;
        break;
      }
      if (
        (await verdictOn(value)) === 'accepted' &&
        !accepted.some((known) => isDeepStrictEqual(known, value))
      )
        accepted.push(value);
    }
    proven = accepted.length;
    // Loaded here: Ajv is for the proof, not for every generation.
    const { supersetViolations } = await import('./superset.js');
    for (const violation of supersetViolations(emitted, accepted))
      problems.push({
        severity: 'error',
        code: 'superset-violated',
        tool: name,
        file: ref.file,
        line: ref.line,
        ...(violation.document === 'mcp' || violation.document === 'agent'
          ? {}
          : { profile: violation.document }),
        message: `toolprep's ${violation.document} document refuses ${JSON.stringify(violation.value)}, which the contract accepts: ${violation.message}`,
        hint: 'this is a bug in toolprep, not in the contract: please report it with this value',
      });
  }
  return { tool: name, findings: [...byField.values()], problems, samples, proven, outOfTime: timedOut };
}

interface ParsedPart {
  readonly schema: unknown;
  readonly adapter: RuntimeAdapter;
  readonly library: SchemaBuilder;
}

/** The input's and the params' parsers, each of its own library; undefined if one is unread. */
function partsOf(
  contract: ToolContract,
): { readonly input: ParsedPart; readonly params?: ParsedPart } | undefined {
  const partOf = (schema: unknown): ParsedPart | undefined => {
    const adapter = libraryOf(schema)?.runtime;
    const library = builderOf(schema);
    return adapter && library ? { schema, adapter, library } : undefined;
  };
  const input = partOf(contract.input);
  if (!input) return undefined;
  if (contract.params === undefined) return { input };
  const params = partOf(contract.params);
  return params ? { input, params } : undefined;
}

/**
 * A call's refusal as the runner parses it: the params' keys by the params' parser, the rest by
 * the input's, each once; the refusal names which of them refused.
 */
async function refusalOfCall(
  parts: { readonly input: ParsedPart; readonly params?: ParsedPart },
  paramKeys: readonly string[],
  value: unknown,
): Promise<(Refusal & { root: 'input' | 'params' }) | undefined> {
  const { params, input } = parts;
  if (!params || !isRecord(value)) {
    const refusal = await refusalOf(() => input.adapter.validate(input.schema, value));
    return refusal && { ...refusal, root: 'input' };
  }
  const { picked: ofParams, rest: ofInput } = splitKeys(value, paramKeys);
  const refusal = await refusalOf(() => params.adapter.validate(params.schema, ofParams));
  if (refusal) return { ...refusal, root: 'params' };
  const inputRefusal = await refusalOf(() => input.adapter.validate(input.schema, ofInput));
  return inputRefusal && { ...inputRefusal, root: 'input' };
}

/**
 * Values sampled from each part's own JSON Schema, by its own library. With params, each sampled
 * params value goes with the input's first, and each input value with the params' first, so that
 * every sample is a whole call.
 */
function ownValues(parts: { readonly input: ParsedPart; readonly params?: ParsedPart }): unknown[] {
  const valuesOf = ({ library, schema }: ParsedPart) =>
    documentedValues(library.convert(schema, { dialect: 'draft-2020-12', io: 'input' }).document).map(
      (sample) => sample.value,
    );
  const inputValues = valuesOf(parts.input);
  if (!parts.params) return inputValues;
  const paramsValues = valuesOf(parts.params);
  const [firstParams] = paramsValues.filter(isRecord);
  const [firstInput] = inputValues.filter(isRecord);
  return [
    ...paramsValues.filter(isRecord).map((params) => ({ ...firstInput, ...params })),
    ...inputValues.filter(isRecord).map((input) => ({ ...firstParams, ...input })),
  ];
}

interface Refusal {
  readonly path: (string | number)[];
  readonly message: string;
  readonly thrown: boolean;
}

/** The first issue of a refused value, with its path; a parser that throws is a refusal too. */
async function refusalOf(validate: () => unknown): Promise<Refusal | undefined> {
  try {
    const result = (await validate()) as {
      issues?: readonly { path?: readonly unknown[]; message: string }[];
    };
    const [issue] = result.issues ?? [];
    if (!issue) return undefined;
    return { path: issuePath(issue.path), message: issue.message, thrown: false };
  } catch (error) {
    return {
      path: [],
      message: `the parser threw: ${error instanceof Error ? error.message : String(error)}`,
      thrown: true,
    };
  }
}

function describedAt(document: JsonSchema, path: readonly (string | number)[]): boolean {
  let node: unknown = document;
  for (const key of path) {
    const schema = node as JsonSchema | undefined;
    node =
      typeof key === 'number'
        ? (schema?.items as JsonSchema | undefined)
        : getOwn(schema?.properties as Record<string, unknown> | undefined, key);
  }
  return typeof (node as JsonSchema | undefined)?.description === 'string';
}

/** `[toolprep] src/a.ts:4 tool "x", input.path: the document allows "a", which the parser refuses: …`. */
export function formatFinding(finding: HiddenConstraint): string {
  const hint = finding.described
    ? 'its description may say so already'
    : "describe the rule in the field's description, or express it in the schema so that it reaches the document";
  return `[toolprep] ${finding.described ? 'info: ' : ''}${finding.file}:${finding.line} tool "${finding.tool}", ${finding.field}: the document allows ${JSON.stringify(finding.counterexample)}, which the parser refuses: ${finding.message} (${hint})`;
}
