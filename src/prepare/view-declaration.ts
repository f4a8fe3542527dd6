import type { ToolContract, ViewCspDomains, ViewPermission, ViewVisibility } from '../contract/types.js';
import type { ViewCsp } from '../manifest/tool-set.js';
import type { Problem } from '../shared/build/problems.js';
import { isPlainObject } from '../shared/run/is-record.js';

/**
 * A contract's `view`, checked and spelled out, as plain data (kept in the prepared-tool cache, so
 * that a view is built again without loading its contract): a view of the tool's own, or the
 * view of another tool that this one belongs to.
 */
export type DeclaredView =
  | {
      readonly kind: 'own';
      /** As the contract wrote it, relative to the contract's file. */
      readonly entry: string;
      readonly csp: ViewCsp;
      readonly permissions: readonly ViewPermission[];
      readonly visibility: readonly ViewVisibility[];
      readonly prefersBorder?: boolean;
    }
  | { readonly kind: 'of'; readonly of: string; readonly visibility: readonly ViewVisibility[] };

const VIEW_VISIBILITIES: readonly ViewVisibility[] = ['model', 'app'];
const VIEW_PERMISSIONS: readonly ViewPermission[] = ['camera', 'microphone', 'geolocation', 'clipboardWrite'];
const VIEW_CSP_FIELDS: readonly (keyof ViewCspDomains)[] = [
  'connectDomains',
  'resourceDomains',
  'frameDomains',
  'baseUriDomains',
];
const OWN_KEYS = ['entry', 'csp', 'permissions', 'visibility', 'prefersBorder'];
const LINK_KEYS = ['of', 'visibility'];
const DEFAULT_VISIBILITY: readonly ViewVisibility[] = ['model', 'app'];
const EXAMPLE = "view: { entry: './notes-view.html', csp: { connectDomains: ['https://api.example.com'] } }";

/**
 * An origin as a CSP source names one: a scheme and a host (`*.` may lead it), an optional port,
 * no path; or a scheme alone (`https:`, `data:`). A bracketed IPv6 host is an origin too, which the
 * CSP proof warns a CSP cannot name.
 */
const ORIGIN =
  /^(?:[a-z][a-z0-9+.-]*:\/\/(?:(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?|[a-z][a-z0-9+.-]*:)$/i;

/** The contract's `view` checked; none when it has none or it is wrong (each mistake reported). */
export function declaredViewOf(
  tool: string,
  contract: ToolContract,
  problems: Problem[],
): DeclaredView | undefined {
  const { view } = contract as { view?: unknown };
  if (view === undefined) return undefined;
  const bad = reporter(tool, problems);
  if (typeof view === 'string') return viewOf(tool, { entry: view }, problems);
  if (!isPlainObject(view))
    return bad('view', 'must be the entry of the view, or an object with its `entry`', EXAMPLE);
  if ('of' in view) {
    const before = problems.length;
    for (const key of Object.keys(view))
      if (!LINK_KEYS.includes(key))
        bad(`view.${key}`, `"${key}" is not a key of a view link`, `a link takes ${LINK_KEYS.join(', ')}`);
    if (typeof view.of !== 'string' || view.of === '')
      return bad('view.of', 'must name the tool whose view this tool belongs to');
    const visibility = visibilityOf(view.visibility, bad);
    return visibility && problems.length === before ? { kind: 'of', of: view.of, visibility } : undefined;
  }
  return viewOf(tool, view, problems);
}

type Bad = (field: string, message: string, hint?: string) => undefined;

/** Reports a mistake in the view at `field`, as the error `invalid-view`. */
function reporter(tool: string, problems: Problem[]): Bad {
  return (field, message, hint) => {
    problems.push({
      severity: 'error',
      code: 'invalid-view',
      tool,
      field,
      message,
      ...(hint ? { hint } : {}),
    });
    return undefined;
  };
}

function viewOf(tool: string, view: Record<string, unknown>, problems: Problem[]): DeclaredView | undefined {
  const before = problems.length;
  const bad = reporter(tool, problems);
  for (const key of Object.keys(view))
    if (!OWN_KEYS.includes(key))
      bad(
        `view.${key}`,
        `"${key}" is not a key of a view, so it would mean nothing`,
        `a view takes ${OWN_KEYS.join(', ')}`,
      );
  const { entry, csp = {}, permissions = [], prefersBorder } = view;
  if (typeof entry !== 'string' || entry.trim() === '')
    bad('view.entry', 'must be the path of the view, relative to the contract', EXAMPLE);
  else if (!/\.(html?|[cm]?[jt]sx?)$/.test(entry))
    bad('view.entry', `must be an HTML file or a module (.ts, .tsx, .js, .jsx), not "${entry}"`);
  const checkedCsp: Record<string, string[]> = {};
  if (!isPlainObject(csp)) bad('view.csp', 'must be an object of origin lists', EXAMPLE);
  else
    for (const [field, origins] of Object.entries(csp)) {
      if (!(VIEW_CSP_FIELDS as readonly string[]).includes(field)) {
        bad(
          `view.csp.${field}`,
          `"${field}" is not a CSP field of MCP Apps`,
          `the fields are ${VIEW_CSP_FIELDS.join(', ')}`,
        );
        continue;
      }
      if (!Array.isArray(origins) || !origins.every((origin) => typeof origin === 'string')) {
        bad(`view.csp.${field}`, 'must be a list of origins', "['https://api.example.com']");
        continue;
      }
      origins.forEach((origin: string, index) => {
        if (!ORIGIN.test(origin))
          bad(
            `view.csp.${field}[${index}]`,
            `must be an origin (scheme and host, no path), not "${origin}"`,
            'https://api.example.com, or https://*.example.com for its subdomains',
          );
      });
      if (origins.length > 0) checkedCsp[field] = [...new Set(origins as string[])].sort();
    }
  if (!Array.isArray(permissions))
    bad('view.permissions', `must be a list of ${VIEW_PERMISSIONS.join(', ')}`);
  else
    permissions.forEach((permission: unknown, index) => {
      if (!(VIEW_PERMISSIONS as readonly unknown[]).includes(permission))
        bad(
          `view.permissions[${index}]`,
          `${JSON.stringify(permission)} is not a permission a host grants a view`,
          `permissions are ${VIEW_PERMISSIONS.join(', ')}`,
        );
    });
  if (prefersBorder !== undefined && typeof prefersBorder !== 'boolean')
    bad('view.prefersBorder', 'must be true or false');
  const visibility = visibilityOf(view.visibility, bad);
  if (problems.length > before || !visibility || typeof entry !== 'string') return undefined;
  return {
    kind: 'own',
    entry,
    csp: checkedCsp,
    permissions: [...new Set(permissions as ViewPermission[])].sort(),
    visibility,
    ...(prefersBorder === undefined ? {} : { prefersBorder: prefersBorder as boolean }),
  };
}

function visibilityOf(value: unknown, bad: Bad): readonly ViewVisibility[] | undefined {
  if (value === undefined) return DEFAULT_VISIBILITY;
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    !value.every((entry) => (VIEW_VISIBILITIES as readonly unknown[]).includes(entry))
  )
    return bad(
      'view.visibility',
      `must be a non-empty list of ${VIEW_VISIBILITIES.map((name) => `"${name}"`).join(' and ')}, not ${JSON.stringify(value)}`,
      "['model', 'app'] (the default), or ['app'] for a tool only the view calls",
    );
  // In a fixed order, so that the same choice is the same bytes.
  return VIEW_VISIBILITIES.filter((name) => value.includes(name));
}
