import type * as TsMorph from 'ts-morph';
import type { ContractCalls } from './factory-calls.js';
import { isDeclaration } from './syntax.js';

type Member = string | number;

/** Where a value ends up, as far as the source shows. */
export type Place =
  /** In an export (at a member of it, in an exported object or list). */
  | {
      readonly at: 'export';
      readonly exportName: string;
      readonly member?: Member;
      /** The node whose JSDoc describes the export. */
      readonly documented: TsMorph.Node;
      /** The node whose JSDoc describes the value where it was made (a local's declaration). */
      readonly origin: TsMorph.Node;
    }
  /** Nowhere: a statement of its own, `void`, or a local never used. */
  | { readonly at: 'dropped' }
  /** Somewhere discovery cannot follow: `construct` says where, for a message. */
  | {
      readonly at: 'unreadable';
      readonly node: TsMorph.Node;
      readonly construct: string;
      readonly hint?: string;
    };

/** One step of a value: into an export, into a module-level local not exported, or one of the ends. */
type Step =
  | {
      readonly at: 'export';
      readonly exportName: string;
      readonly member?: Member;
      readonly documented: TsMorph.Node;
    }
  | {
      readonly at: 'local';
      readonly name: string;
      readonly member?: Member;
      readonly documented: TsMorph.Node;
    }
  | Exclude<Place, { at: 'export' }>;

/**
 * Follows values of a module to the exports that hold them: through parentheses, `as`,
 * `satisfies` and `!`, `Object.freeze(…)` and the project's identity wrappers, into object and list
 * literals one level deep, and through module-level locals to every place they are used.
 */
export function placesOfValues(
  source: TsMorph.SourceFile,
  morph: typeof TsMorph,
  calls: Pick<ContractCalls, 'wrapperArgument'>,
  exportedAs: ReadonlyMap<string, string>,
): { follow(node: TsMorph.Node): Place[] } {
  const { Node } = morph;
  let objectDeclared: boolean | undefined;
  /** `Object.freeze(…)` of the global `Object`: it returns its argument. */
  const isFreeze = (call: TsMorph.CallExpression) => {
    const callee = call.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== 'freeze') return false;
    if (callee.getExpression().getText() !== 'Object') return false;
    objectDeclared ??= referencesTo(source, 'Object', morph, true).length > 0;
    return !objectDeclared;
  };

  /** The expression a value is, seen through what returns it unchanged. */
  const holderOf = (node: TsMorph.Node): TsMorph.Node => {
    let current = node;
    for (let parent = current.getParent(); parent; parent = current.getParent()) {
      const typeSyntax =
        Node.isParenthesizedExpression(parent) ||
        Node.isAsExpression(parent) ||
        Node.isSatisfiesExpression(parent) ||
        Node.isNonNullExpression(parent);
      if (typeSyntax) {
        current = parent;
        continue;
      }
      if (!Node.isCallExpression(parent) || parent.getExpression() === current) break;
      const args = parent.getArguments();
      const index = args.indexOf(current);
      const passedThrough =
        !args.slice(0, index + 1).some((arg) => Node.isSpreadElement(arg)) &&
        ((index === 0 && isFreeze(parent)) || calls.wrapperArgument(parent) === index);
      if (!passedThrough) break;
      current = parent;
    }
    return current;
  };

  const withMember = (step: Step, member: Member | undefined, documented?: TsMorph.Node): Step => {
    if (member === undefined || (step.at !== 'export' && step.at !== 'local')) return step;
    if (step.member !== undefined) {
      const owner = step.at === 'export' ? `export \`${step.exportName}\`` : `\`${step.name}\``;
      return {
        at: 'unreadable',
        node: documented ?? step.documented,
        construct: `two levels deep in ${owner}`,
        hint: `discovery reads one level into an exported object or list: export the inner object on its own (\`export const ${String(step.member)} = { … }\`)`,
      };
    }
    return { ...step, member, documented: documented ?? step.documented };
  };

  const stepOf = (node: TsMorph.Node): Step => {
    const holder = holderOf(node);
    const parent = holder.getParent();
    if (!parent) return { at: 'dropped' };
    if (Node.isExportAssignment(parent) && !parent.isExportEquals())
      return { at: 'export', exportName: 'default', documented: parent };
    if (Node.isVariableDeclaration(parent) && parent.getInitializer() === holder) {
      if (!Node.isIdentifier(parent.getNameNode())) return unreadable(parent, 'destructured', undefined);
      const statement = parent.getVariableStatement();
      if (!statement || statement.getParent() !== source)
        return unreadable(parent, 'held by a variable inside a block', undefined);
      const name = parent.getName();
      const exportName = statement.hasExportKeyword() ? name : exportedAs.get(name);
      return exportName === undefined
        ? { at: 'local', name, documented: statement }
        : { at: 'export', exportName, documented: statement };
    }
    if (Node.isPropertyAssignment(parent) && parent.getInitializer() === holder) {
      const key = propertyKey(parent, Node);
      if (key === undefined) return unreadable(parent, 'under a computed key', undefined);
      return withMember(stepOf(parent.getParentOrThrow()), key, parent);
    }
    if (Node.isShorthandPropertyAssignment(parent))
      return withMember(stepOf(parent.getParentOrThrow()), parent.getName(), parent);
    if (Node.isArrayLiteralExpression(parent))
      return withMember(stepOf(parent), parent.getElements().indexOf(holder as TsMorph.Expression), holder);
    if (Node.isExpressionStatement(parent) || Node.isVoidExpression(parent)) return { at: 'dropped' };
    return unreadable(holder, ...construct(parent, Node));
  };

  const follow = (step: Step, origin: TsMorph.Node, seen: Set<string>): Place[] => {
    if (step.at === 'export') return [{ ...step, origin }];
    if (step.at !== 'local') return [step];
    const key = `${step.name}#${String(step.member)}`;
    if (seen.has(key)) return [];
    seen.add(key);
    const places: Place[] = [];
    for (const reference of referencesTo(source, step.name, morph)) {
      const parent = reference.getParentOrThrow();
      const read =
        (Node.isPropertyAccessExpression(parent) || Node.isElementAccessExpression(parent)) &&
        parent.getExpression() === reference;
      if (read && step.member !== undefined && accessedMember(parent, Node) === String(step.member)) {
        places.push(...follow(stepOf(parent), origin, seen));
        continue;
      }
      // Reading another member or a field, calling it, `typeof`, `void`, a statement of its own.
      if (
        read ||
        (Node.isCallExpression(parent) && parent.getExpression() === reference) ||
        Node.isTypeOfExpression(parent) ||
        Node.isTypeQuery(parent) ||
        Node.isVoidExpression(parent) ||
        Node.isExpressionStatement(parent)
      )
        continue;
      places.push(...follow(withMember(stepOf(reference), step.member), origin, seen));
    }
    return places.length > 0 ? places : [{ at: 'dropped' }];
  };

  return {
    follow(node) {
      const first = stepOf(node);
      return follow(
        first,
        first.at === 'export' || first.at === 'local' ? first.documented : node,
        new Set(),
      );
    },
  };
}

function unreadable(
  node: TsMorph.Node,
  construct: string,
  hint: string | undefined,
): Extract<Place, { at: 'unreadable' }> {
  return hint === undefined
    ? { at: 'unreadable', node, construct }
    : { at: 'unreadable', node, construct, hint };
}

/** What holds a value where discovery stops following it, in words, with what to do when it is particular. */
function construct(
  parent: TsMorph.Node,
  Node: typeof TsMorph.Node,
): [construct: string, hint: string | undefined] {
  if (Node.isCallExpression(parent) || Node.isNewExpression(parent)) {
    const callee = calleeName(parent);
    const called = Node.isNewExpression(parent) ? `new ${callee}` : callee;
    const wrapper = Node.isIdentifier(parent.getExpression()) && Node.isCallExpression(parent);
    return [
      `passed to \`${called}(…)\``,
      wrapper
        ? `if \`${callee}\` returns its argument unchanged, declare it in the project as \`function ${callee}<T>(tool: T): T { …; return tool; }\` (in this module, or imported straight from the one that declares it) and discovery sees through it; otherwise export the contract itself`
        : undefined,
    ];
  }
  if (Node.isSpreadElement(parent) || Node.isSpreadAssignment(parent))
    return ['spread into another value', undefined];
  if (Node.isPropertyDeclaration(parent)) return ['a class member', undefined];
  if (Node.isReturnStatement(parent) || Node.isArrowFunction(parent))
    return ['returned from a function', undefined];
  if (Node.isAwaitExpression(parent)) return ['awaited', undefined];
  const text = parent.getText().replace(/\s+/g, ' ');
  return [`used in \`${text.length > 40 ? `${text.slice(0, 39)}…` : text}\``, undefined];
}

/** `names.map`, `Object.fromEntries`, `register`: a call's callee, briefly. */
export function calleeName(call: TsMorph.CallExpression | TsMorph.NewExpression): string {
  const text = call.getExpression().getText().replace(/\s+/g, ' ');
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/** The member a property or element access reads, when it is written as a name, string or number. */
function accessedMember(
  access: TsMorph.PropertyAccessExpression | TsMorph.ElementAccessExpression,
  Node: typeof TsMorph.Node,
): string | undefined {
  if (Node.isPropertyAccessExpression(access)) return access.getName();
  const argument = access.getArgumentExpression();
  return argument && (Node.isStringLiteral(argument) || Node.isNumericLiteral(argument))
    ? String(argument.getLiteralValue())
    : undefined;
}

/** A property's key when it is a plain name or a string. */
function propertyKey(property: TsMorph.PropertyAssignment, Node: typeof TsMorph.Node): string | undefined {
  const name = property.getNameNode();
  if (Node.isIdentifier(name)) return name.getText();
  if (Node.isStringLiteral(name)) return name.getLiteralValue();
  return undefined;
}

/**
 * The identifiers of a module that use its module-level binding `name` as a value (not a
 * property name, a type name, or a binding of the same name inside a function or block); with
 * `declarations`, those that declare `name` anywhere instead.
 */
export function referencesTo(
  source: TsMorph.SourceFile,
  name: string,
  { Node, SyntaxKind }: typeof TsMorph,
  declarations = false,
): TsMorph.Identifier[] {
  if (!source.getFullText().includes(name)) return [];
  const declares = (identifier: TsMorph.Node): boolean => {
    const parent = identifier.getParent();
    if (!parent) return false;
    if (Node.isImportClause(parent)) return true;
    const named = parent as Partial<Record<'getNameNode' | 'getAliasNode', () => TsMorph.Node | undefined>>;
    return (
      (!Node.isShorthandPropertyAssignment(parent) &&
        !Node.isPropertyAccessExpression(parent) &&
        named.getNameNode?.() === identifier &&
        isDeclaration(parent, Node)) ||
      named.getAliasNode?.() === identifier
    );
  };
  const identifiers = source
    .getDescendantsOfKind(SyntaxKind.Identifier)
    .filter((identifier) => identifier.getText() === name);
  if (declarations) return identifiers.filter(declares);
  return identifiers.filter((identifier) => {
    const parent = identifier.getParent();
    if (!parent || declares(identifier)) return false;
    const named = parent as Partial<Record<'getNameNode', () => TsMorph.Node | undefined>>;
    // `a.name`, `{ name: … }`, a method or a member named so: a property name, not this binding.
    if (!Node.isShorthandPropertyAssignment(parent) && named.getNameNode?.() === identifier) return false;
    if (Node.isTypeReference(parent) || Node.isQualifiedName(parent) || Node.isExportSpecifier(parent))
      return false;
    if (Node.isBindingElement(parent) && parent.getPropertyNameNode() === identifier) return false;
    return !shadowed(identifier, name, Node);
  });
}

/** Whether a function or block around the identifier declares a binding of the same name. */
function shadowed(identifier: TsMorph.Node, name: string, Node: typeof TsMorph.Node): boolean {
  const binds = (nameNode: TsMorph.Node | undefined): boolean => {
    if (!nameNode) return false;
    if (Node.isIdentifier(nameNode)) return nameNode.getText() === name;
    if (Node.isObjectBindingPattern(nameNode) || Node.isArrayBindingPattern(nameNode))
      return nameNode
        .getElements()
        .some((element) => Node.isBindingElement(element) && binds(element.getNameNode()));
    return false;
  };
  for (let scope = identifier.getParent(); scope && !Node.isSourceFile(scope); scope = scope.getParent()) {
    if (
      (Node.isFunctionDeclaration(scope) ||
        Node.isFunctionExpression(scope) ||
        Node.isArrowFunction(scope) ||
        Node.isMethodDeclaration(scope) ||
        Node.isConstructorDeclaration(scope) ||
        Node.isSetAccessorDeclaration(scope)) &&
      scope.getParameters().some((parameter) => binds(parameter.getNameNode()))
    )
      return true;
    if (Node.isFunctionExpression(scope) && scope.getName() === name) return true;
    if (Node.isCatchClause(scope) && binds(scope.getVariableDeclaration()?.getNameNode())) return true;
    if (Node.isForOfStatement(scope) || Node.isForInStatement(scope) || Node.isForStatement(scope)) {
      const initializer = scope.getInitializer();
      if (initializer && Node.isVariableDeclarationList(initializer))
        if (initializer.getDeclarations().some((declaration) => binds(declaration.getNameNode())))
          return true;
    }
    if (Node.isBlock(scope) || Node.isCaseClause(scope) || Node.isDefaultClause(scope))
      for (const statement of scope.getStatements()) {
        if (
          Node.isVariableStatement(statement) &&
          statement.getDeclarations().some((d) => binds(d.getNameNode()))
        )
          return true;
        if (
          (Node.isFunctionDeclaration(statement) || Node.isClassDeclaration(statement)) &&
          statement.getName() === name
        )
          return true;
      }
  }
  return false;
}
