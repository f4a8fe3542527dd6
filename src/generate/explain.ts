import { openSync, readSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { builderOf } from '../adapters/builders.js';
import { issuePath } from '../adapters/issue-path.js';
import type { SchemaBuilder } from '../adapters/types.js';
import type { ResolvedToolprepConfig } from '../config/options.js';
import type { ToolContract } from '../contract/types.js';
import type { ContractRef } from '../discover/find-contracts.js';
import type { PreparedTool } from '../manifest/prepared-tool.js';
import { presentSchema } from '../prepare/present.js';
import type { Problem } from '../shared/build/problems.js';
import { propertyOf } from '../shared/json-schema/records.js';
import { isSchemaObject, type JsonSchema } from '../shared/json-schema/schema.js';
import { isRecord } from '../shared/run/is-record.js';
import { splitKeys } from '../shared/run/own-property.js';
import { documentedValues, type Sample } from './sample-values.js';

/**
 * The explain stage (docs/decisions/0027-explain-as-a-stage.md): plain data in (each tool as the
 * generation prepared it, with its live contract or the pass already run over it), findings out.
 * It never prepares a tool: the values come from each part's presented document, the proof
 * validates the documents the generation emitted.
 */

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

/** One tool's pass over its values: plain data, kept with the generation that ran it. */
export interface ToolPass {
  readonly tool: string;
  readonly findings: readonly HiddenConstraint[];
  /** The distinct values parsed. */
  readonly samples: number;
  /** The values the contract accepted, each once: what the superset proof validates. */
  readonly accepted: readonly unknown[];
  /** The budget it ran under. */
  readonly milliseconds: number;
  /** True when the budget ran out before every value was tried. */
  readonly outOfTime: boolean;
}

/** A tool as the generation prepared it, with the pass over it if one ran, else its live contract. */
export interface ExplainableTool {
  readonly prepared: PreparedTool;
  readonly ref: ContractRef;
  readonly pass?: ToolPass;
  readonly contract?: ToolContract;
}

export interface ExplainOptions {
  /** The CPU time each tool's values may take, in milliseconds. Default 250. */
  readonly milliseconds?: number;
  /** Also prove the superset: every value the contract accepted against every document of its tool. Default false. */
  readonly prove?: boolean;
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

/** The budget of each tool's pass, the generation's and `check --explain`'s alike. */
export const EXPLAIN_MILLISECONDS = 250;

/**
 * The CPU time this thread has used, in milliseconds: the budget counts the pass's own work, so
 * that a busy machine (CI beside other jobs) slows a pass down without cutting it short, and so
 * does the token counter's thread working beside it. Node 20 has no thread clock of its own
 * (`process.threadCpuUsage` came later); Linux tells the thread's time on a CPU in
 * /proc/thread-self/schedstat, brought up to date at the scheduler's ticks (a few milliseconds:
 * a budget is spent when the clock reaches it, so that a budget of 0 tries nothing). Elsewhere
 * the process's clock, which counts every thread.
 */
const cpuMilliseconds: () => number = threadClock();

function threadClock(): () => number {
  const threadCpuUsage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage;
  if (threadCpuUsage) return () => usageMilliseconds(threadCpuUsage.call(process));
  try {
    // Opened once for the process's life: a read at offset 0 is one system call (3 µs), where
    // opening the file each time costs ten times that, and the clock is read every millisecond.
    const schedstat = openSync('/proc/thread-self/schedstat', 'r');
    const buffer = Buffer.alloc(64);
    const onCpu = () => {
      const length = readSync(schedstat, buffer, 0, buffer.length, 0);
      return Number(buffer.toString('latin1', 0, length).split(' ', 1)[0]) / 1e6;
    };
    if (Number.isFinite(onCpu())) return onCpu;
  } catch {
    // Not Linux, or no schedstat: the process's clock.
  }
  return () => usageMilliseconds(process.cpuUsage());
}

function usageMilliseconds({ user, system }: NodeJS.CpuUsage): number {
  return (user + system) / 1000;
}

/**
 * The CPU clock is read again once the wall clock has moved on by this many milliseconds (or by
 * what was left of the budget at the last read, if less): reading it is a system call, and a pass
 * of a few milliseconds needs it once or twice, not every few values.
 */
const CLOCK_WALL_MILLISECONDS = 1;

/** True once `milliseconds` of CPU time from now are spent, asked before each value. */
function cpuBudget(milliseconds: number): () => boolean {
  let cpu = cpuMilliseconds();
  const deadline = cpu + milliseconds;
  let readAt = performance.now();
  return () => {
    const now = performance.now();
    if (now - readAt < Math.min(CLOCK_WALL_MILLISECONDS, deadline - cpu)) return false;
    readAt = now;
    cpu = cpuMilliseconds();
    return cpu >= deadline;
  };
}

/** At most this many values are tried per tool: the pass stays a few milliseconds per tool. */
const SAMPLES_PER_TOOL = 400;

/**
 * True when `pass` answers for a budget of `milliseconds`: it tried every value, or it was cut
 * short under a budget at least as large.
 */
export function passHolds(pass: ToolPass | undefined, milliseconds: number): pass is ToolPass {
  return pass !== undefined && (!pass.outOfTime || pass.milliseconds >= milliseconds);
}

/**
 * Explains the tools: each one's pass (the one given, when it holds for the budget; else a new one
 * over its contract), the hidden constraints they found and, with `prove`, the superset proof.
 * Returns the passes beside the explanation, in the tools' order, for the caller to keep.
 */
export async function explainTools(
  tools: readonly ExplainableTool[],
  options: ExplainOptions & { readonly extend?: ResolvedToolprepConfig['extend'] } = {},
): Promise<{ readonly explanation: Explanation; readonly passes: readonly (ToolPass | undefined)[] }> {
  const started = performance.now();
  const milliseconds = options.milliseconds ?? EXPLAIN_MILLISECONDS;
  const passes: (ToolPass | undefined)[] = [];
  for (const { prepared, ref, pass, contract } of tools)
    passes.push(
      passHolds(pass, milliseconds)
        ? pass
        : contract && (await explainTool(contract, prepared, ref, milliseconds)),
    );
  const problems: Problem[] = [];
  let proven = 0;
  const extension = options.prove ? await extensionPart(options.extend) : undefined;
  if (extension)
    for (const [index, pass] of passes.entries()) {
      const tool = tools[index];
      if (!pass || !tool) continue;
      const values = pass.accepted.map((value) => (isRecord(value) ? { ...extension, ...value } : value));
      proven += values.length;
      problems.push(...(await supersetProblems(tool, values)));
    }
  const passed = passes.filter((pass) => pass !== undefined);
  return {
    explanation: {
      findings: passed.flatMap((pass) => pass.findings),
      problems,
      tools: passed.length,
      samples: passed.reduce((sum, pass) => sum + pass.samples, 0),
      proven,
      outOfTime: passed.filter((pass) => pass.outOfTime).map((pass) => pass.tool),
      milliseconds: performance.now() - started,
    },
    passes,
  };
}

/**
 * One tool's pass, deterministic (the values are chosen from documents, not drawn at random) and
 * bounded by its budget: values of a whole call from each part's presented document (input and
 * params each on its own, before merging and flattening, so no two union variants' fields are
 * mixed), each parsed as the runner parses a call. Every field where one is refused is reported
 * with the shortest counterexample and the parser's message; the values accepted are kept for the
 * proof. Undefined for a contract with no input, or one whose schemas toolprep cannot read.
 */
export async function explainTool(
  contract: ToolContract,
  prepared: PreparedTool,
  ref: ContractRef,
  milliseconds = EXPLAIN_MILLISECONDS,
): Promise<ToolPass | undefined> {
  const parts = partsOf(contract);
  if (!parts) return undefined;
  const documents = {
    input: presentedDocument(parts.input),
    ...(parts.params ? { params: presentedDocument(parts.params) } : {}),
  };
  const spent = cpuBudget(milliseconds);
  const tried = new Set<string>();
  const accepted: unknown[] = [];
  const byField = new Map<string, HiddenConstraint>();
  let outOfTime = false;
  for (const sample of callSamples(documents).slice(0, SAMPLES_PER_TOOL)) {
    if (spent()) {
      outOfTime = true;
      break;
    }
    const key = JSON.stringify(sample.value);
    if (tried.has(key)) continue;
    tried.add(key);
    const refusal = await refusalOfCall(parts, prepared.params ?? [], sample.value);
    if (!refusal) {
      accepted.push(sample.value);
      continue;
    }
    // An issue names its field (none: a rule across the object's fields); a throw names none, so
    // the field the value varied is the one to blame.
    const at = refusal.thrown ? sample.path : refusal.path;
    const field = [refusal.root, ...at].join('.');
    const known = byField.get(field);
    if (known && JSON.stringify(known.counterexample).length <= key.length) continue;
    byField.set(field, {
      tool: prepared.name,
      file: ref.file,
      line: ref.line,
      field,
      counterexample: sample.value,
      message: refusal.message,
      described: describedAt(documents[refusal.root] ?? documents.input, at),
    });
  }
  return {
    tool: prepared.name,
    findings: [...byField.values()],
    samples: tried.size,
    accepted,
    milliseconds,
    outOfTime,
  };
}

interface ParsedPart {
  readonly schema: unknown;
  readonly library: SchemaBuilder;
}

function partOf(schema: unknown): ParsedPart | undefined {
  const library = builderOf(schema);
  return library && { schema, library };
}

/** The input's and the params' parsers, each of its own library; undefined if one is unread. */
function partsOf(
  contract: ToolContract,
): { readonly input: ParsedPart; readonly params?: ParsedPart } | undefined {
  const input = partOf(contract.input);
  if (!input) return undefined;
  if (contract.params === undefined) return { input };
  const params = partOf(contract.params);
  return params ? { input, params } : undefined;
}

/** The part's document as presentation converts it, before toolprep's passes over the whole input. */
function presentedDocument({ library, schema }: ParsedPart): JsonSchema {
  return presentSchema(library, schema, 'draft-2020-12', 'input').document;
}

/**
 * Values of whole calls: the input's, or with params each params value with the input's typical
 * value and each input value with the params', so that every sample is a call the runner parses.
 */
function callSamples(documents: { readonly input: JsonSchema; readonly params?: JsonSchema }): Sample[] {
  const inputSamples = documentedValues(documents.input);
  if (!documents.params) return inputSamples;
  const paramsSamples = documentedValues(documents.params);
  const typicalOf = (samples: readonly Sample[]) => samples.map((sample) => sample.value).find(isRecord);
  const [typicalParams, typicalInput] = [typicalOf(paramsSamples), typicalOf(inputSamples)];
  // The params' keys first, as the documents show them.
  const calls = (samples: readonly Sample[], callOf: (value: Record<string, unknown>) => unknown): Sample[] =>
    samples.flatMap(({ value, path }) => (isRecord(value) ? [{ value: callOf(value), path }] : []));
  return [
    ...calls(paramsSamples, (params) => ({ ...params, ...typicalInput })),
    ...calls(inputSamples, (input) => ({ ...typicalParams, ...input })),
  ];
}

interface Refusal {
  readonly path: (string | number)[];
  readonly message: string;
  readonly thrown: boolean;
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
    const refusal = await refusalOf(input, value);
    return refusal && { ...refusal, root: 'input' };
  }
  const { picked: ofParams, rest: ofInput } = splitKeys(value, paramKeys);
  const refusal = await refusalOf(params, ofParams);
  if (refusal) return { ...refusal, root: 'params' };
  const inputRefusal = await refusalOf(input, ofInput);
  return inputRefusal && { ...inputRefusal, root: 'input' };
}

/** The first issue of a refused value, with its path; a parser that throws is a refusal too. */
async function refusalOf({ library, schema }: ParsedPart, value: unknown): Promise<Refusal | undefined> {
  try {
    const result = await library.validateFew(schema, value);
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
    const schema = isSchemaObject(node) ? node : undefined;
    node = typeof key === 'number' ? schema?.items : propertyOf(schema, key);
  }
  return isSchemaObject(node) && typeof node.description === 'string';
}

/**
 * What the config's extension keys add to every call the proof validates, since the emitted
 * documents show them: nothing when they are not advertised; a value the `extend` schema's parser
 * accepts otherwise; undefined when no value the sampler writes is accepted, so that no whole
 * call can be made and nothing is proven.
 */
async function extensionPart(
  extend: ResolvedToolprepConfig['extend'],
): Promise<Record<string, unknown> | undefined> {
  if (!extend?.advertise) return {};
  const part = partOf(extend.schema);
  if (!part) return undefined;
  for (const { value } of documentedValues(presentedDocument(part)).slice(0, SAMPLES_PER_TOOL))
    if (isRecord(value) && !(await refusalOf(part, value))) return value;
  return undefined;
}

/** Each document of the tool's that refuses one of `values`, which its contract accepts: a bug in toolprep. */
async function supersetProblems(
  { prepared, ref }: ExplainableTool,
  values: readonly unknown[],
): Promise<Problem[]> {
  // Loaded here: Ajv is for the proof, not for every generation.
  const { supersetViolations } = await import('./superset.js');
  return supersetViolations(prepared, values).map(
    (violation): Problem => ({
      severity: 'error',
      code: 'superset-violated',
      tool: prepared.name,
      file: ref.file,
      line: ref.line,
      ...(violation.document === 'mcp' || violation.document === 'agent'
        ? {}
        : { profile: violation.document }),
      message: `toolprep's ${violation.document} document refuses ${JSON.stringify(violation.value)}, which the contract accepts: ${violation.message}`,
      hint: 'this is a bug in toolprep, not in the contract: please report it with this value',
    }),
  );
}
