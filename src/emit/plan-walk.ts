import { type Plan, type PlanNode, planChildren } from '../manifest/plan.js';
import { definitionOf, type Steps, stepsOf, structureParts } from '../manifest/plan-walk.js';
import { digestOf } from '../shared/build/canonical-json.js';
import { interleaved, pieced } from './pieced.js';

/**
 * A tool's plan written as code at build time, into the generated module (decision 0055): one
 * function per node, every field read by its own name, a discriminated union's tags matched by a
 * `switch`. Closures read fields through one shared `record[key]`, which V8 can only look up slowly
 * once it has seen many keys; code gives each field a read of its own, and each call a target it
 * can inline, which keeps the plan cheap beside the contract's parser on every runtime, with no
 * code generated where the server runs (Workers, a strict CSP). User keys, tags and enum members
 * enter the source only as JSON string literals; the leaf steps are the runtime's
 * (`PlanWalkHelpers`), handed in on the first call of any tool; what tools share is written once, in
 * the walks module's prelude (decision 0070).
 */

/** The functions a node compiles to, by name in the source; a part is absent where the node does nothing. */
interface Emitted {
  /** The node's text step, as an expression of `value`. */
  readonly text?: string;
  readonly structure?: string;
  readonly lone?: string;
  /** What a parent calls to walk a value here. */
  readonly visit: string;
}

const HELPER_NAMES = [
  'text',
  'picker',
  'listAccepted',
  'withoutAbsentNulls',
  'hasNullValue',
  'isOneValueText',
  'tooDeep',
  'withRepairedField',
] as const;

/**
 * A tool's walks as the build writes them, before the walks module names what it holds: each
 * constant and function under an id made from its source, so that the module writes what many
 * tools share once (`emitPlanWalks`). The ids are delimited by U+0001, which no JSON literal in
 * the source can hold (JSON escapes it), so naming them cannot touch a user's key.
 */
export interface ToolWalk {
  /** The constants, then the functions, that the walks reach: by id, each its declaration. */
  readonly definitions: readonly (readonly [id: string, source: string])[];
  /** The walks by steps index, as an array expression. */
  readonly walks: string;
}

/** What delimits an id: U+0001, escaped in every JSON literal. */
const MARK = '\u0001';
const ID = new RegExp(`${MARK}([a-z]+):([0-9a-f]+)${MARK}`, 'g');

/** The id of a definition: its kind (`prefix`) and `digest`, its source's. */
const idOf = (prefix: string, digest: string) => `${MARK}${prefix}:${digest}${MARK}`;

/** A constant or a function that a walk declares: its id, and its source as `emitPlanWalk` keeps it. */
type Declared = readonly [kind: 'constant' | 'function', id: string, source: string];

/**
 * What the tools of one walks module share while it is written, since many tools hold the same
 * field: each source's digest, and what each plan node compiled to under each steps (its parts and
 * its declarations, in the order it made them). A node that reaches a shared definition is its
 * plan's own, and is not kept.
 */
export interface WalkSources {
  readonly digests: Map<string, string>;
  /** The ids each declaration's source names. */
  readonly named: Map<string, readonly string[]>;
  readonly nodes: Map<string, { readonly emitted: Emitted; readonly declared: readonly Declared[] }>;
}

export function walkSources(): WalkSources {
  return { digests: new Map(), named: new Map(), nodes: new Map() };
}

/**
 * A tool's plan written as code: one walk for each steps index its calls can ask (`stepsIndexesOf`),
 * made once for the steps that change it.
 */
export function emitPlanWalk(
  plan: Plan,
  indexes: readonly number[],
  { digests, named, nodes }: WalkSources = walkSources(),
): ToolWalk {
  const constants = new Map<string, string>();
  const functions = new Map<string, string>();
  const journal: Declared[] = [];
  // Which steps change the walk: only a plan with such positions needs a walk for each.
  const mask = stepsMask(plan);
  const byMasked = new Map<number, string>();
  let planKey: string | undefined;
  const source: Source = {
    id: (prefix, text) => {
      let digest = digests.get(text);
      if (digest === undefined) {
        digest = digestOf(text);
        digests.set(text, digest);
      }
      return idOf(prefix, digest);
    },
    declare: (declared) => {
      const [kind, id, text] = declared;
      (kind === 'constant' ? constants : functions).set(id, text);
      journal.push(declared);
    },
    journal,
    nodes,
    // A plan's own: its digest is not kept.
    sharedId: (name, steps) => {
      planKey ??= JSON.stringify(plan);
      return idOf('shared', digestOf(JSON.stringify([planKey, name, steps])));
    },
  };
  const walkOf = (index: number) => {
    const masked = index & mask;
    const known = byMasked.get(masked);
    if (known) return known;
    const visit = emitWalk(plan, stepsOf(masked), source);
    byMasked.set(masked, visit);
    return visit;
  };
  const walks = `[${Array.from({ length: 4 }, (_, index) => (indexes.includes(index) ? walkOf(index) : 'undefined')).join(', ')}]`;
  const idsIn = (text: string) => {
    let ids = named.get(text);
    if (ids === undefined) {
      ids = idsInSource(text);
      named.set(text, ids);
    }
    return ids;
  };
  // Only what the walks reach is written: a strict `tsconfig` refuses a function never called.
  const written = reachedFrom(idsInSource(walks), functions, idsIn);
  // A constant is written where a function reads it, or a later constant does (the steps).
  const read: (readonly [string, string])[] = [];
  const reading = new Set(written.flatMap((id) => idsIn(functions.get(id) ?? '')));
  for (const [id, text] of [...constants].reverse())
    if (reading.has(id)) {
      read.unshift([id, `const ${id} = ${text};`]);
      for (const other of idsIn(text)) reading.add(other);
    }
  return { definitions: [...read, ...written.map((id) => [id, functions.get(id) ?? ''] as const)], walks };
}

/**
 * The walks of many tools as one function of the runtime's leaf steps (a `GeneratedWalks`,
 * TypeScript): a prelude that declares once what two tools or more share, then each tool's
 * factory (keyed by `key`, a property name's source) with what only it holds, made on its first
 * call. Each id is named by its prefix and the shortest start of its digest no other id shares, so
 * that a tool changed renames its own ids and rarely another's.
 */
export function emitPlanWalks(tools: readonly (readonly [key: string, walk: ToolWalk])[]): string[] {
  const users = new Map<string, number>();
  for (const [, { definitions }] of tools)
    for (const [id] of definitions) users.set(id, (users.get(id) ?? 0) + 1);
  const prelude = new Map<string, string>();
  for (const [, { definitions }] of tools)
    for (const [id, text] of definitions) if ((users.get(id) ?? 0) > 1) prelude.set(id, text);
  // Each source's lines indented once, by the depth they are written at.
  const preludeLines: string[] = [];
  for (const text of prelude.values()) indentInto(preludeLines, '  ', text);
  const pieces = [
    pieceOf(preludeLines.join('\n')),
    pieceOf('  return {'),
    ...tools.map(([key, walk]) => factoryOf(key, walk, prelude)),
    pieceOf('  };'),
  ].filter((piece) => piece.text !== '');
  const names = namesOf(pieces.flatMap((piece) => piece.ids));
  const named = interleaved(
    pieces.map((piece) => namedText(piece, names)),
    '\n',
  );
  const helpers = HELPER_NAMES.filter((name) => {
    const call = new RegExp(`\\b${name}\\(`);
    return named.some((text) => call.test(text));
  });
  return pieced`(${helpers.length > 0 ? `{ ${helpers.join(', ')} }` : '_helpers'}) => {\n${named}\n}`;
}

/** Lines of the walks module before its ids are named, with the ids they hold, and their named text once made. */
interface Piece {
  readonly text: string;
  readonly ids: readonly string[];
  named?: { readonly names: string; readonly text: string };
}

const pieceOf = (text: string): Piece => ({ text, ids: idsInSource(text) });

/**
 * Each tool's factory as last written, kept with its walk: a walk the build took from its memo
 * (the tool unchanged, or only its description) is written again only when what it shares with
 * other tools changed. At 1,000 tools, writing every factory anew cost a regeneration 35 ms here,
 * most of the time the module took.
 */
const factories = new WeakMap<
  ToolWalk,
  { readonly key: string; readonly own: string; readonly piece: Piece }
>();

/** A tool's factory: what only it holds (what others share is in the prelude), then its walks. */
function factoryOf(key: string, walk: ToolWalk, prelude: ReadonlyMap<string, string>): Piece {
  const own = walk.definitions.filter(([id]) => !prelude.has(id));
  const ownIds = own.map(([id]) => id).join(' ');
  const kept = factories.get(walk);
  if (kept && kept.key === key && kept.own === ownIds) return kept.piece;
  const lines: string[] = [];
  if (own.length === 0) indentInto(lines, '    ', `${key}: () => ${walk.walks},`);
  else {
    indentInto(lines, '    ', `${key}: () => {`);
    for (const [, text] of own) indentInto(lines, '      ', text);
    indentInto(lines, '      ', `return ${walk.walks};`);
    indentInto(lines, '    ', '},');
  }
  const piece = pieceOf(lines.join('\n'));
  factories.set(walk, { key, own: ownIds, piece });
  return piece;
}

/** A piece's text with its ids named: made again only when one of its ids' names changed. */
function namedText(piece: Piece, names: ReadonlyMap<string, string>): string {
  const given = piece.ids.map((id) => names.get(id)).join(' ');
  if (piece.named?.names !== given)
    piece.named = { names: given, text: piece.text.replace(ID, (id) => names.get(id) ?? id) };
  return piece.named.text;
}

/** Each id by its name: its prefix and its digest's shortest start (3 digits or more) that is its own. */
function namesOf(found: readonly string[]): Map<string, string> {
  const ids = new Map<string, readonly [prefix: string, digest: string]>();
  for (const id of found) {
    if (ids.has(id)) continue;
    const [prefix = '', digest = ''] = id.slice(MARK.length, -MARK.length).split(':');
    ids.set(id, [prefix, digest]);
  }
  const digests = [...new Set([...ids.values()].map(([, digest]) => digest))].sort();
  const shared = (one = '', other = '') => {
    let length = 0;
    while (length < one.length && one[length] === other[length]) length++;
    return length;
  };
  const lengths = new Map(
    digests.map((digest, index) => [
      digest,
      Math.max(3, shared(digest, digests[index - 1]) + 1, shared(digest, digests[index + 1]) + 1),
    ]),
  );
  return new Map(
    [...ids].map(([id, [prefix, digest]]) => [id, `${prefix}${digest.slice(0, lengths.get(digest))}`]),
  );
}

/** Adds each line of `source` to `lines`, after `indent`; blank lines left out. */
function indentInto(lines: string[], indent: string, source: string): void {
  for (const line of source.split('\n')) if (line.trim() !== '') lines.push(`${indent}${line.trimEnd()}`);
}

const mentions = (source: string, name: string): boolean => new RegExp(`\\b${name}\\b`).test(source);

/** The ids in `source`: each is delimited by a character no other text in it holds. */
const idsInSource = (source: string): readonly string[] => source.match(ID) ?? [];

/** The functions `ids` name, and those they call, in the order they were written. */
function reachedFrom(
  ids: readonly string[],
  functions: ReadonlyMap<string, string>,
  idsIn: (source: string) => readonly string[],
): string[] {
  const reached = new Set<string>();
  const pending = [ids];
  for (let next = pending.pop(); next !== undefined; next = pending.pop())
    for (const id of next) {
      const body = functions.get(id);
      if (body !== undefined && !reached.has(id)) {
        reached.add(id);
        pending.push(idsIn(body));
      }
    }
  return [...functions.keys()].filter((id) => reached.has(id));
}

/** Bit 0 where the plan holds `nullAbsent` positions, bit 1 where it holds `fold` or variant tags. */
function stepsMask(plan: Plan): number {
  let mask = 0;
  // Children visited where they are held, with no list of all of them made: a plan has many nodes.
  const visitAll = (nodes: readonly (PlanNode | null | undefined)[] | undefined): void => {
    if (nodes) for (const node of nodes) visit(node);
  };
  const visit = (node: PlanNode | null | undefined): void => {
    if (!node) return;
    if (node.nullAbsent || node.nullAbsentBeyond) mask |= 1;
    if (node.fold || node.variants) mask |= 2;
    if (node.fields) visitAll(Object.values(node.fields));
    visit(node.rest);
    visit(node.items);
    visitAll(node.tuple);
    if (node.variants) for (const variant of node.variants) visit(variant.node);
    visit(node.object);
    visit(node.array);
    visitAll(node.all);
  };
  visit(plan.root);
  for (const definition of Object.values(plan.defs ?? {})) visit(definition);
  return mask;
}

interface Source {
  /** The id of a definition of kind `prefix` whose source is `text`. */
  readonly id: (prefix: string, text: string) => string;
  /** Keeps a constant or a function for the walks, and notes it in `journal`. */
  readonly declare: (declared: Declared) => void;
  /** Everything declared so far, in order: what a node declared is the part after its start. */
  readonly journal: readonly Declared[];
  readonly nodes: WalkSources['nodes'];
  /** The id of a definition's function, handed out before its body is made (it may call itself). */
  readonly sharedId: (name: string, steps: Steps) => string;
}

/** One walk's functions, declared through `source`; returns the id of its root's visit. */
function emitWalk(plan: Plan, steps: Steps, source: Source): string {
  const { id: idOfSource, declare: keep, journal, nodes, sharedId } = source;
  const shared = new Map<string, Emitted>();
  // Nodes met whose code is not their JSON's alone (a shared definition's, a tag JSON cannot
  // write): a node that reaches one is not kept.
  let planOwn = 0;
  const constant = (text: string) => {
    const id = idOfSource('k', text);
    keep(['constant', id, text]);
    return id;
  };
  const stepsJson = JSON.stringify(steps);
  // The steps, written once for every leaf step made with them.
  const stepsSource = constant(stepsJson);
  const literal = (value: unknown) => JSON.stringify(value);
  // JSON for the helpers, typed as the manifest's own literal types.
  const data = (value: unknown) => `${JSON.stringify(value)} as const`;
  /**
   * A function of `value` and `walk`, its parameter named unused where the body never walks; its
   * id made from its source, so that a function written twice (many nodes of a plan, the walks of
   * its steps indexes, the same field in many tools) is written once. A definition's `id` is given:
   * it was handed out before its body was made.
   */
  const define = (prefix: string, value: string, body: string, id?: string): string => {
    const source = `(${value}: any, ${mentions(body, 'walk') ? 'walk' : '_walk'}: any): any {\n${body
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => `  ${line.trim()}`)
      .join('\n')}\n}`;
    const defined = id ?? idOfSource(prefix, source);
    keep(['function', defined, `function ${defined}${source}`]);
    return defined;
  };

  /** A node's code: what the module's other tools compiled for a node of the same JSON, or made anew. */
  const emit = (node: PlanNode): Emitted => {
    if (node.ref !== undefined) {
      planOwn++;
      return emitShared(node.ref);
    }
    const key = `${stepsJson}${JSON.stringify(node)}`;
    // JSON writes a tag of `undefined` or `NaN` as `null`: such a node has no key of its own.
    if (key.includes('"tags":') && !tagsExact(node)) {
      planOwn++;
      return emitNode(node);
    }
    const known = nodes.get(key);
    if (known) {
      for (const declaration of known.declared) keep(declaration);
      return known.emitted;
    }
    const [start, ownBefore] = [journal.length, planOwn];
    const emitted = emitNode(node);
    if (planOwn === ownBefore) nodes.set(key, { emitted, declared: journal.slice(start) });
    return emitted;
  };

  const emitNode = (node: PlanNode): Emitted => {
    const structure = emitStructure(node);
    const { parse, scalar, refuse, fold } = node;
    const text =
      (fold ? steps.caseFold : parse || scalar || refuse) &&
      constant(`text(${data({ parse, scalar, refuse, fold })}, ${stepsSource})!`);
    const parts = {
      text: text ? textSource(node, text) : undefined,
      structure,
      lone: node.lone && emitLone(node.lone, structure),
    };
    return { ...parts, visit: define('visit', 'value', visitSource(parts)) };
  };

  /** A definition, emitted once; its name is taken first, so that a recursive one can call itself. */
  const emitShared = (name: string): Emitted => {
    const known = shared.get(name);
    if (known) return known;
    const definition = definitionOf(plan, name);
    const visit = sharedId(name, steps);
    // As in the closures, a reference walks every value by its definition.
    const reference = { text: `${visit}(value, walk)`, structure: visit, lone: visit, visit };
    shared.set(name, reference);
    const target = emit(definition);
    define('shared', 'value', `return ${target.visit}(value, walk);`, visit);
    return reference;
  };

  const emitLone = (check: NonNullable<PlanNode['lone']>, structure: string | undefined): string => {
    const repaired = structure ? `${structure}(list, walk)` : 'list';
    return define(
      'lone',
      'value',
      `const list = [value], repaired = ${repaired}; return listAccepted(${constant(data(check))}, repaired, walk) ? repaired : value;`,
    );
  };

  const emitStructure = (node: PlanNode): string | undefined => {
    const { sides, onArray, onObject, single } = structureParts(node, {
      structureOf: (other) => emit(other).structure,
      items: emitItems,
      variants: emitVariants,
      fields: emitFields,
    });
    if (single) return onArray ?? onObject;
    return define(
      'structure',
      'value',
      `${sides.map((side) => `value = ${side}(value, walk);`).join(' ')}
if (Array.isArray(value)) return ${onArray ? `${onArray}(value, walk)` : 'value'};
return ${onObject ? `${onObject}(value, walk)` : 'value'};`,
    );
  };

  const emitVariants = (tag: string, variants: NonNullable<PlanNode['variants']>): string | undefined => {
    const structures = variants.map(({ node }) => emit(node).structure);
    if (!structures.some((structure) => structure)) return undefined;
    const walkVariant = (index: number) =>
      structures[index] ? `return ${structures[index]}(record, walk);` : 'return record;';
    // The first variant listing a tag takes it; tags JSON can write are matched by a switch.
    const cases = new Map<string, string>();
    for (const [index, variant] of variants.entries())
      for (const value of variant.tags) {
        const source = jsonLiteral(value);
        if (source !== undefined && !cases.has(source))
          cases.set(source, `case ${source}: ${walkVariant(index)}`);
      }
    const allLiteral = variants.every((variant) =>
      variant.tags.every((value) => jsonLiteral(value) !== undefined),
    );
    // Any other tag (or, with `caseFold`, a tag in another case) is the variant the picker finds.
    const pick = constant(`picker(${data(variants.map(({ tags }) => ({ tags })))}, ${stepsSource})`);
    const picked = `switch (${pick}(tag)) { ${structures.map((_, index) => `case ${index}: ${walkVariant(index)}`).join(' ')} }`;
    return define(
      'variants',
      'record',
      `if (Array.isArray(record)) return record; const tag = record[${literal(tag)}];
${allLiteral ? `switch (tag) { ${[...cases.values()].join(' ')} }` : ''}
${!allLiteral || steps.caseFold ? picked : ''}
return record;`,
    );
  };

  const emitItems = (node: PlanNode): string | undefined => {
    if (!node.items && !node.tuple) return undefined;
    const tuple = (node.tuple ?? []).map((item) => (item ? emit(item) : undefined));
    const rest = node.items && emit(node.items);
    const walkItem = (item: Emitted | undefined) =>
      childSource(item, 'item', 'index', '{ result ??= value.slice(); result[index] = repaired; }');
    const body = tuple.length
      ? `switch (index) { ${tuple.map((item, index) => `case ${index}: ${walkItem(item)} break;`).join(' ')} default: ${walkItem(rest)} }`
      : walkItem(rest);
    return define(
      'items',
      'value',
      `if (!Array.isArray(value)) return value; ${declare(body, ['result', 'item', 'repaired'])}
for (let index = 0; index < value.length; index++) { ${/\bitem\b/.test(body) ? 'item = value[index]; ' : ''}${body} }
return ${/\bresult\b/.test(body) ? 'result ?? ' : ''}value;`,
    );
  };

  const emitFields = (node: PlanNode): string | undefined => {
    const walked = Object.entries(node.fields ?? {})
      .map(([key, field]) => [key, emit(field)] as const)
      .filter(([, field]) => field.text || field.structure);
    const rest = node.rest && emit(node.rest);
    const nullAbsent = steps.nullAbsent ? node.nullAbsent : undefined;
    const beyond = steps.nullAbsent && node.nullAbsentBeyond ? node.nullAbsentBeyond : undefined;
    if (walked.length === 0 && !rest && !nullAbsent && !beyond) return undefined;
    // The caller's object copied on the first repair, and only an own key replaced: a helper, as
    // a repair is rare and its code the same for every field.
    const replace = (key: string) => `result = withRepairedField(result, value, record, ${key}, repaired);`;
    const fields = walked.map(([key, field]) => {
      const name = literal(key);
      return `field = record[${name}]; ${childSource(field, 'field', name, replace(name))}`;
    });
    const restWalk = rest && childSource(rest, 'field', 'key', replace('key'));
    // Each listed key read by name, and any other key (`beyond`) in one scan, before the copy is
    // made: most calls hold none of these nulls.
    const anyNull = [
      ...(nullAbsent ?? []).map((key) => `record[${literal(key)}] === null`),
      ...(beyond ? ['hasNullValue(record)'] : []),
    ].join(' || ');
    const removeNulls = anyNull
      ? `if (${anyNull}) record = withoutAbsentNulls(record, ${nullAbsent ? constant(data(nullAbsent)) : 'undefined'}, ${beyond ? constant(`new Set(${literal(beyond)})`) : 'undefined'});`
      : '';
    // Declared fields in the schema's order, then the other keys in the arguments' order: the
    // reference walks the same way, so both name the same field first.
    const declared = restWalk && constant(`new Set(${literal(Object.keys(node.fields ?? {}))})`);
    const others = restWalk
      ? `for (const key of Object.keys(record)) { if (${declared}.has(key)) continue; field = record[key]; ${restWalk} }`
      : '';
    const walks = `${fields.join('\n')}\n${others}`;
    return define(
      'fields',
      'value',
      `if (Array.isArray(value)) return value; ${removeNulls ? 'let' : 'const'} record = value; ${removeNulls}
let result = record; ${declare(walks, ['field', 'repaired'])}
${walks}
return result;`,
    );
  };

  return emit(plan.root).visit;
}

/** `let` for the names a body uses: a strict `tsconfig` refuses a local that is never read. */
function declare(body: string, names: readonly string[]): string {
  const used = names.filter((name) => new RegExp(`\\b${name}\\b`).test(body));
  return used.length > 0 ? `let ${used.map((name) => `${name}: any`).join(', ')};` : '';
}

/** A text step's call; an enum's members, when they are few, matched first without one. */
function textSource({ fold }: PlanNode, step: string): string {
  const call = `${step}(value, walk)`;
  if (!fold || fold.length > 8) return call;
  return `(${fold.map((member) => `value === ${JSON.stringify(member)}`).join(' || ')} ? value : ${call})`;
}

/**
 * True where every variant tag in `node` is one JSON writes as nothing else writes: not
 * `undefined`, a non-finite number, a function or a symbol, which it writes as `null` or leaves out.
 */
function tagsExact(node: PlanNode): boolean {
  const exact = (tag: unknown) =>
    typeof tag === 'number'
      ? Number.isFinite(tag)
      : tag === null || ['string', 'boolean', 'object'].includes(typeof tag);
  return (
    (node.variants ?? []).every((variant) => variant.tags.every(exact)) &&
    planChildren(node).every(({ child }) => tagsExact(child))
  );
}

/** A scalar as JavaScript source that `===` matches, where JSON can write it. */
function jsonLiteral(value: unknown): string | undefined {
  if (typeof value === 'string' || typeof value === 'boolean' || value === null) return JSON.stringify(value);
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}

/**
 * A child walked where its node does something to a value of its kind (most positions hold
 * nothing), then `onRepaired` where the walk changed it; nothing where the node never acts.
 */
function childSource(node: Emitted | undefined, value: string, key: string, onRepaired: string): string {
  const guard = node && guardOf(node, value);
  if (!node || !guard) return '';
  const visit = `walk.path.push(${key}); repaired = ${node.visit}(${value}, walk); walk.path.pop(); if (repaired !== ${value}) ${onRepaired}`;
  return guard === 'true' ? visit : `if (${guard}) { ${visit} }`;
}

function guardOf({ text, structure, lone }: Emitted, value: string): string | undefined {
  // A lone-value repair looks at any value.
  if (lone) return 'true';
  const isText = `typeof ${value} === 'string'`;
  const isStructure = `(typeof ${value} === 'object' && ${value} !== null)`;
  if (text && structure) return `${isText} || ${isStructure}`;
  return text ? isText : structure ? isStructure : undefined;
}

/** A node's visit: the depth checked, then text, a lone value or structure, as `visit` in the closures. */
function visitSource({ text, structure, lone }: Omit<Emitted, 'visit'>): string {
  const depth = 'if (walk.path.length > walk.maxDepth) throw tooDeep(walk.path, walk.maxDepth);';
  // Without a lone-value repair, what text becomes is what the node returns, and structure only
  // an object (or array) reaches.
  if (!lone && !structure)
    return `${depth}\nreturn ${text ? `typeof value === 'string' ? ${text} : ` : ''}value;`;
  if (!lone)
    return `${depth}
${text ? `if (typeof value === 'string') { value = ${text}; if (typeof value === 'string') return value; }` : ''}
return typeof value === 'object' && value !== null ? ${structure}(value, walk) : value;`;
  return `${depth}
if (typeof value === 'string') { ${text ? `value = ${text}; if (typeof value === 'string') ` : ''}return isOneValueText(value) ? ${lone}(value, walk) : value; }
if (typeof value !== 'object' || value === null) return value != null ? ${lone}(value, walk) : value;
if (!Array.isArray(value)) return ${lone}(value, walk);
return ${structure ? `${structure}(value, walk)` : 'value'};`;
}
