import type { ContractRef } from './contract-ref.js';
import { FACTORY } from './factory-calls.js';
import { docCommentDescription, isDocComment } from './jsdoc.js';

/**
 * Reading a file as tokens, without TypeScript, is what lets a cold run of a project of plain
 * contract files skip loading the compiler (decision 0071). It answers only where the answer is
 * provably the full reading's; anything else is `undefined`, and the file goes the full way.
 */

interface Token {
  readonly kind: 'word' | 'punct' | 'string' | 'template' | 'regex';
  readonly text: string;
  readonly start: number;
  readonly end: number;
  /** A line break (or a comment holding one) since the previous token: where a statement may end. */
  readonly newlineBefore: boolean;
  /** How many brackets are open around the token; 0 at the top level. */
  readonly depth: number;
}

const OPENERS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
/** Tokens after which a `/` starts a regular expression, never a division. */
const BEFORE_REGEX = new Set(['(', ',', '=', ':', '[', '&', '|', '?', '{', ';']);
/** Words that can only start a statement, so a line break before one ends the statement before it. */
const STATEMENT_STARTS = new Set(['export', 'import', 'const', 'let', 'var']);
/** After an imported name, what may make it the callee of a call (a tool factory's, possibly). */
const MAY_CALL = new Set(['(', '<', '?', '!']);

const isWordChar = (code: number) =>
  (code >= 48 && code <= 57) ||
  (code >= 65 && code <= 90) ||
  (code >= 97 && code <= 122) ||
  code === 95 ||
  code === 36;
const isLineBreak = (code: number) => code === 10 || code === 13 || code === 0x2028 || code === 0x2029;

/**
 * The tokens of a module's text, brackets matched; `undefined` for anything this scanner does not
 * read with certainty: a character outside ASCII in code, a `/` that may be a division, a
 * private name, a decorator, an unterminated literal, unbalanced brackets.
 */
function tokensOf(text: string): Token[] | undefined {
  const tokens: Token[] = [];
  const open: string[] = [];
  let newlineBefore = false;
  const push = (kind: Token['kind'], start: number, end: number, depth = open.length) => {
    tokens.push({ kind, text: text.slice(start, end), start, end, newlineBefore, depth });
    newlineBefore = false;
  };
  /** From inside a template literal to its end (a token) or to a `${` (pushed as opened). */
  const templateFrom = (start: number, from: number, depth: number): number | undefined => {
    for (let at = from; at < text.length; at++) {
      const char = text[at];
      if (char === '\\') at++;
      else if (char === '`') {
        push('template', start, at + 1, depth);
        return at + 1;
      } else if (char === '$' && text[at + 1] === '{') {
        push('template', start, at + 2, depth);
        open.push('${');
        return at + 2;
      }
    }
    return undefined;
  };
  let at = 0;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    const char = text[at] as string;
    if (code === 10 || code === 13) {
      newlineBefore = true;
      at++;
    } else if (code === 32 || code === 9 || code === 11 || code === 12) at++;
    else if (char === '/' && text[at + 1] === '/') {
      while (at < text.length && !isLineBreak(text.charCodeAt(at))) at++;
    } else if (char === '/' && text[at + 1] === '*') {
      const end = text.indexOf('*/', at + 2);
      if (end === -1) return undefined;
      if (/[\n\r\u2028\u2029]/.test(text.slice(at, end))) newlineBefore = true;
      at = end + 2;
    } else if (char === '/') {
      if (!BEFORE_REGEX.has(tokens.at(-1)?.text ?? '')) return undefined;
      let end = at + 1;
      for (let inClass = false; ; end++) {
        const inside = text[end];
        if (inside === undefined || isLineBreak(text.charCodeAt(end))) return undefined;
        if (inside === '\\') end++;
        else if (inside === '[') inClass = true;
        else if (inside === ']') inClass = false;
        else if (inside === '/' && !inClass) break;
      }
      end++;
      while (end < text.length && isWordChar(text.charCodeAt(end))) end++;
      push('regex', at, end);
      at = end;
    } else if (char === '"' || char === "'") {
      let end = at + 1;
      for (; text[end] !== char; end++) {
        if (end >= text.length || text[end] === '\n' || text[end] === '\r') return undefined;
        if (text[end] === '\\') end += text.startsWith('\r\n', end + 1) ? 2 : 1;
      }
      push('string', at, end + 1);
      at = end + 1;
    } else if (char === '`') {
      const next = templateFrom(at, at + 1, open.length);
      if (next === undefined) return undefined;
      at = next;
    } else if (isWordChar(code)) {
      let end = at + 1;
      while (end < text.length && isWordChar(text.charCodeAt(end))) end++;
      push('word', at, end);
      at = end;
    } else if (char in OPENERS) {
      push('punct', at, at + 1);
      open.push(char);
      at++;
    } else if (char === ')' || char === ']' || char === '}') {
      const opened = open.pop();
      if (opened === '${' && char === '}') {
        const next = templateFrom(at, at + 1, open.length);
        if (next === undefined) return undefined;
        at = next;
        continue;
      }
      if (opened === undefined || OPENERS[opened] !== char) return undefined;
      push('punct', at, at + 1);
      at++;
    } else if ('.,;:=<>+-*%&|^!~?'.includes(char)) {
      push('punct', at, at + 1);
      at++;
    } else return undefined;
  }
  return open.length === 0 ? tokens : undefined;
}

/** The line of a position as the full reading (ts-morph) numbers it: 1 and a line a `\n` before it. */
function lineAt(text: string, position: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < position; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

/**
 * The description of the last `/** … *\/` comment TypeScript counts as leading a statement that
 * starts after `from`: every comment there but those on the line `from` ends (the trailing
 * comments of the statement before), unless `from` is the start of the file.
 */
function leadingJsDoc(text: string, from: number, to: number): string | undefined {
  let collecting = from === 0;
  let last: string | undefined;
  for (let at = from; at < to; ) {
    const code = text.charCodeAt(at);
    if (isLineBreak(code)) {
      collecting = true;
      at++;
    } else if (text.startsWith('//', at)) {
      while (at < to && !isLineBreak(text.charCodeAt(at))) at++;
    } else if (text.startsWith('/*', at)) {
      const end = text.indexOf('*/', at + 2) + 2;
      const comment = text.slice(at, end);
      if (collecting && isDocComment(comment)) last = comment;
      at = end;
    } else at++;
  }
  const description = last && docCommentDescription(last);
  return description || undefined;
}

/** The names an import statement binds, whether it imports toolprep's `defineTool`, and where it ends. */
interface ImportStatement {
  readonly end: number;
  /** The value bindings (a type-only import binds none a call could use). */
  readonly locals: readonly string[];
  /** The local name of toolprep's `defineTool`, when this statement imports it as a value. */
  readonly defineTool?: string;
  /** The indexes of the tokens that name `defineTool` here. */
  readonly factoryTokens: readonly number[];
}

function importAt(tokens: readonly Token[], first: number): ImportStatement | undefined {
  let at = first + 1;
  const word = () => (tokens[at]?.kind === 'word' ? (tokens[at] as Token).text : undefined);
  const isText = (text: string) => tokens[at]?.text === text && tokens[at]?.kind !== 'string';
  const typeOnly = isText('type') && tokens[at + 1]?.text !== 'from' && tokens[at + 1]?.text !== ',';
  if (typeOnly) at++;
  const locals: string[] = [];
  const named: { name: string; local: string; typeOnly: boolean; tokens: number[] }[] = [];
  if (tokens[at]?.kind !== 'string') {
    const defaultLocal = word();
    if (defaultLocal !== undefined && !isText('from')) {
      if (!typeOnly) locals.push(defaultLocal);
      at++;
      if (!isText(',')) {
        if (!isText('from')) return undefined;
      } else at++;
    }
    if (isText('*')) {
      at++;
      if (!isText('as')) return undefined;
      at++;
      const local = word();
      if (local === undefined) return undefined;
      if (!typeOnly) locals.push(local);
      at++;
    } else if (isText('{')) {
      at++;
      while (!isText('}')) {
        const specifierTokens: number[] = [];
        let specifierTypeOnly = false;
        if (isText('type') && tokens[at + 1]?.kind === 'word' && tokens[at + 1]?.text !== 'as') {
          specifierTypeOnly = true;
          at++;
        }
        const name = word();
        if (name === undefined || name === 'type') return undefined;
        specifierTokens.push(at);
        at++;
        let local = name;
        if (isText('as')) {
          at++;
          const alias = word();
          if (alias === undefined) return undefined;
          specifierTokens.push(at);
          local = alias;
          at++;
        }
        named.push({ name, local, typeOnly: specifierTypeOnly, tokens: specifierTokens });
        if (!typeOnly && !specifierTypeOnly) locals.push(local);
        if (isText(',')) at++;
        else if (!isText('}')) return undefined;
      }
      at++;
    }
    if (!isText('from')) return undefined;
    at++;
  }
  const source = moduleSpecifierAt(tokens, at);
  if (!source) return undefined;
  const fromToolprep = source.specifier === 'toolprep';
  const factories = named.filter((entry) => entry.name === FACTORY || entry.local === FACTORY);
  const values = fromToolprep && !typeOnly ? factories.filter((entry) => !entry.typeOnly) : [];
  // Another module's `defineTool` may be toolprep's through a barrel: the full way follows it.
  if (factories.length > 0 && (values.length !== factories.length || values.length > 1)) return undefined;
  const defineTool = values[0]?.name === FACTORY ? values[0]?.local : undefined;
  if (values.length > 0 && defineTool === undefined) return undefined;
  return {
    end: source.end,
    locals,
    ...(defineTool === undefined ? {} : { defineTool }),
    factoryTokens: factories.flatMap((entry) => entry.tokens),
  };
}

/**
 * `export * from '…'`, `export { a, b as c } from '…'`, and the re-exports the full reading leaves
 * alone (`export type { … } from`, `export * as name from`): where the statement ends, and the
 * specifier that must be resolved, if any.
 */
function reExportAt(
  tokens: readonly Token[],
  first: number,
): { end: number; specifier?: string } | undefined {
  let at = first + 1;
  const isText = (text: string) => tokens[at]?.text === text && tokens[at]?.kind === 'punct';
  const isWord = (text: string) => tokens[at]?.text === text && tokens[at]?.kind === 'word';
  let followed = true;
  if (isWord('type')) {
    followed = false;
    at++;
  }
  if (isText('*')) {
    at++;
    if (isWord('as')) {
      followed = false;
      at += 2;
    }
  } else if (isText('{')) {
    while (at < tokens.length && !isText('}')) at++;
    at++;
  } else return undefined;
  if (!isWord('from')) return undefined;
  at++;
  const source = moduleSpecifierAt(tokens, at);
  if (!source) return undefined;
  return followed ? source : { end: source.end };
}

/**
 * The module specifier of an import or re-export (a string without escapes) at `at`, and where the
 * statement ends: at its `;` or before a line break; import attributes (`with`, `assert`) refused.
 */
function moduleSpecifierAt(
  tokens: readonly Token[],
  at: number,
): { end: number; specifier: string } | undefined {
  const specifier = tokens[at];
  if (specifier?.kind !== 'string' || specifier.text.includes('\\')) return undefined;
  let end = at + 1;
  if (tokens[end]?.text === ';' && tokens[end]?.kind === 'punct') end++;
  else if (tokens[end] && !tokens[end]?.newlineBefore) return undefined;
  const next = tokens[end];
  if (next?.kind === 'word' && (next.text === 'with' || next.text === 'assert')) return undefined;
  return { end, specifier: specifier.text.slice(1, -1) };
}

/**
 * The contracts of a plain contract file: its statements are imports, `export const name =
 * defineTool(…)` with toolprep's `defineTool`, and other variables, types and interfaces, and no
 * name it imports is called (it may be a tool factory or a wrapper of the project); or a barrel of
 * re-exports, whose specifiers it returns for the caller to resolve. Each contract
 * with its line and JSDoc, as the full reading gives them; `undefined` for any other file.
 * JSX files always go the full way.
 */
export function plainContracts(
  text: string,
  relative: string,
): { refs: ContractRef[]; reExports: string[] } | undefined {
  if (/\.[cm]?[jt]sx$/.test(relative)) return undefined;
  const tokens = tokensOf(text);
  if (!tokens) return undefined;
  const refs: ContractRef[] = [];
  const imported = new Set<string>();
  const allowedFactoryTokens = new Set<number>();
  let defineTool: string | undefined;
  let otherExports = false;
  const reExports: string[] = [];
  let previousEnd = 0;

  /** `export const name =` at a statement's first token. */
  const isNamedConst = (at: number) =>
    tokens[at + 1]?.text === 'const' && tokens[at + 2]?.kind === 'word' && tokens[at + 3]?.text === '=';

  /** Where a statement that is not a contract ends: a `;`, or a line break before a statement. */
  const endOfStatement = (from: number): number => {
    for (let at = from; at < tokens.length; at++) {
      const token = tokens[at] as Token;
      if (token.depth > 0) continue;
      if (token.text === ';' && token.kind === 'punct') return at + 1;
      // `import` may be an expression's (`import('…')`); the others can only start a statement.
      if (
        token.kind === 'word' &&
        STATEMENT_STARTS.has(token.text) &&
        (token.newlineBefore || token.text !== 'import')
      )
        return at;
    }
    return tokens.length;
  };

  for (let at = 0; at < tokens.length; ) {
    const first = tokens[at] as Token;
    const next: Token | undefined = tokens[at + 1];
    let end: number;
    if (first.kind === 'word' && first.text === 'import') {
      const statement = importAt(tokens, at);
      if (!statement) return undefined;
      for (const local of statement.locals) imported.add(local);
      for (const index of statement.factoryTokens) allowedFactoryTokens.add(index);
      if (statement.defineTool !== undefined) {
        if (defineTool !== undefined) return undefined;
        defineTool = statement.defineTool;
      }
      end = statement.end;
    } else if (first.text === 'export' && (isNamedConst(at) || next?.text === 'default')) {
      // `export const name = defineTool(…)` or `export default defineTool(…)`.
      const exportName = next?.text === 'default' ? 'default' : (tokens[at + 2] as Token).text;
      const calleeAt = next?.text === 'default' ? at + 2 : at + 4;
      const callee = tokens[calleeAt];
      if (callee?.kind === 'word' && callee.text === defineTool && tokens[calleeAt + 1]?.text === '(') {
        let close = calleeAt + 2;
        while (close < tokens.length && (tokens[close] as Token).depth > 0) close++;
        const after = tokens[close + 1];
        if (after && after.text !== ';' && !(after.newlineBefore && STATEMENT_STARTS.has(after.text)))
          return undefined;
        end = after?.text === ';' ? close + 2 : close + 1;
        allowedFactoryTokens.add(calleeAt);
        const jsdoc = leadingJsDoc(text, previousEnd, first.start);
        refs.push({
          file: relative,
          exportName,
          line: lineAt(text, callee.start),
          ...(jsdoc ? { jsdoc } : {}),
        });
      } else if (next?.text === 'default') return undefined;
      else {
        otherExports = true;
        end = endOfStatement(at + 1);
      }
    } else if (
      first.text === 'export' &&
      (next?.text === '*' ||
        next?.text === '{' ||
        (next?.text === 'type' && (tokens[at + 2]?.text === '{' || tokens[at + 2]?.text === '*')))
    ) {
      const statement = reExportAt(tokens, at);
      if (!statement) return undefined;
      otherExports = true;
      if (statement.specifier !== undefined) reExports.push(statement.specifier);
      end = statement.end;
    } else if (
      (first.text === 'export' && (next?.text === 'type' || next?.text === 'interface')) ||
      (first.kind === 'word' && ['const', 'let', 'var', 'type', 'interface'].includes(first.text))
    )
      end = endOfStatement(at + 1);
    else return undefined;
    previousEnd = (tokens[end - 1] as Token).end;
    at = end;
  }

  for (const [index, token] of tokens.entries()) {
    if (token.kind !== 'word') continue;
    const isFactory = token.text === FACTORY || token.text === defineTool;
    if (isFactory && !allowedFactoryTokens.has(index)) return undefined;
    const follower = tokens[index + 1];
    const callsImported =
      imported.has(token.text) &&
      tokens[index - 1]?.text !== '.' &&
      follower !== undefined &&
      (MAY_CALL.has(follower.text) || follower.kind === 'template');
    if (callsImported && !isFactory) return undefined;
  }
  // An exported value or a re-export beside a contract may come from another module, which the loader must know.
  if (otherExports && refs.length > 0) return undefined;
  return { refs, reExports };
}
