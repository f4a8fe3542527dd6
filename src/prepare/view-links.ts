import type { PreparedTool } from '../manifest/prepared-tool.js';
import type { Problem } from '../shared/build/problems.js';
import type { DeclaredView } from './view-declaration.js';

interface LinkedTool {
  readonly prepared: PreparedTool;
  readonly ref: { readonly file: string; readonly line: number };
  readonly view?: DeclaredView;
}

/**
 * The links between tools and views, checked before anything is served: a tool with a view of its
 * own has an object output schema (the view is given the result's `structuredContent`; its text
 * `content`, which the runtime always writes, is what a host without views shows); a tool that
 * names another's view (`of`) names a tool with a view of its own. `built` holds the views that
 * were built: a view that failed to build is reported once, where it failed.
 */
export function checkViewLinks(tools: readonly LinkedTool[], built: ReadonlySet<string>): Problem[] {
  const problems: Problem[] = [];
  const byName = new Map(tools.map((tool) => [tool.prepared.name, tool]));
  for (const { prepared, ref, view } of tools) {
    if (!view) continue;
    const place = {
      severity: 'error',
      code: 'view-link',
      tool: prepared.name,
      file: ref.file,
      line: ref.line,
    } as const;
    if (view.kind === 'own') {
      if (prepared.outputSchema?.type !== 'object')
        problems.push({
          ...place,
          field: 'output',
          message: "has a view but no object output schema: the view is given the result's structuredContent",
          hint: 'declare output: z.object({ ... }) with what the view shows',
        });
      continue;
    }
    const target = byName.get(view.of);
    if (target?.view?.kind !== 'own')
      problems.push({
        ...place,
        field: 'view.of',
        message: target
          ? `names "${view.of}", a tool with no view of its own`
          : `names "${view.of}", and no tool has that name`,
        hint: `name the tool whose contract declares view: { entry }${built.size > 0 ? ` (${[...built].sort().join(', ')})` : ''}`,
      });
  }
  return problems;
}
