import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import type { ViewCsp } from '../manifest/tool-set.js';
import type { Problem } from '../shared/build/problems.js';
import type { ViewPiece } from '../shared/build/view-piece.js';

/** What the view does with an origin, and so the CSP field that must list it. */
type Use = 'connect' | 'resource' | 'frame' | 'baseUri';
const FIELD: Record<Use, keyof ViewCsp> = {
  connect: 'connectDomains',
  resource: 'resourceDomains',
  frame: 'frameDomains',
  baseUri: 'baseUriDomains',
};

/** A URL the scan found, at an offset of its piece; `use` undefined: a literal whose use it cannot tell. */
interface Finding {
  readonly url?: string;
  readonly use?: Use;
  readonly offset: number;
  /** Why a URL could not be resolved: `fetch(…)` of a value built at run time. */
  readonly unresolved?: string;
}

const ABSOLUTE = /^(?:[a-z][a-z0-9+.-]*:)?\/\//i;
const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3})$/;
/** An origin whose host is an IPv6 address: `http://[::1]:3000`. */
const IPV6_HOST = /^[a-z][a-z0-9+.-]*:\/\/\[/i;
const IPV6_REASON =
  "is an IPv6 address, which a CSP cannot name: browsers ignore the entry (the CSP grammar's hosts are names)";

/** Attributes of HTML elements whose URL the document loads, by what the load is. */
const HTML_URLS: readonly [RegExp, Use][] = [
  [/<iframe\b[^>]*?\ssrc=(["'])([^"']+)\1/gi, 'frame'],
  [/<base\b[^>]*?\shref=(["'])([^"']+)\1/gi, 'baseUri'],
  [
    /<(?:script|img|source|video|audio|track|embed|input)\b[^>]*?\s(?:src|poster)=(["'])([^"']+)\1/gi,
    'resource',
  ],
  [/<link\b[^>]*?\shref=(["'])([^"']+)\1/gi, 'resource'],
];
const INLINE_SCRIPT = /<script\b(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi;
const CSS_URL = /(?:url\(\s*(["']?)|@import\s+(["']))((?:[a-z][a-z0-9+.-]*:)?\/\/[^"')\s]+)/gi;
/** A URL literal in a script: an absolute one, in quotes or a template's leading text. */
const SCRIPT_URL = /(["'`])((?:https?|wss?):\/\/[^"'`\s\\]*)/gi;
/** Calls that connect: the first argument is a URL. */
const CONNECTS =
  /(?:\b(fetch|new\s+WebSocket|new\s+EventSource|sendBeacon)\s*\(|(\.open)\(\s*["'][A-Za-z]+["']\s*,)\s*/g;

/**
 * Proves a built view's CSP from its bytes: every origin the document loads (markup, styles,
 * scripts) is listed in the field its use belongs in, or the build fails naming the source file
 * and line (mapped back through esbuild's source maps). A connection to a URL built at run time,
 * and an absolute URL whose use the scan cannot tell and that no field lists, are warnings with
 * their place. Declared entries hosts strip or rewrite are warnings too.
 */
export function proveViewCsp(
  tool: string,
  pieces: readonly ViewPiece[],
  csp: ViewCsp,
): { problems: Problem[]; warnings: Problem[] } {
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  for (const [field, origins] of Object.entries(csp) as [keyof ViewCsp, readonly string[]][])
    for (const origin of origins) {
      const stripped = strippedReason(origin);
      if (stripped)
        warnings.push({
          severity: 'warning',
          code: 'view-csp-stripped',
          tool,
          field: `view.csp.${field}`,
          message: `"${origin}" ${stripped}`,
          hint: IPV6_HOST.test(origin)
            ? 'reach it by a host name (localhost for [::1])'
            : 'serve what the view needs over https from a listed origin, or inline it',
        });
    }
  for (const piece of pieces) {
    const place = placer(piece);
    for (const finding of findingsOf(piece)) {
      const where = place(finding.offset);
      if (finding.unresolved) {
        warnings.push({
          severity: 'warning',
          code: 'view-csp-unresolved',
          tool,
          ...where,
          message: `${finding.unresolved}: the scan cannot tell which origin it reaches`,
          hint: 'write the origin as a literal (`https://api.example.com/…`), and list it in view.csp.connectDomains',
        });
        continue;
      }
      const url = finding.url as string;
      const origin = originOf(url);
      if (!origin) continue;
      if (finding.use === undefined) {
        // A package's strings (schema ids, links in messages) are not loads; the project's own may be.
        if (where.file?.includes('node_modules/')) continue;
        if (!Object.values(csp).some((origins) => origins?.some((entry: string) => matches(entry, origin))))
          warnings.push({
            severity: 'warning',
            code: 'view-csp-unresolved',
            tool,
            ...where,
            message: `the view names ${origin} (${url}), which no CSP field lists, and the scan cannot tell how it is used`,
            hint: 'if the view fetches it, list it in view.csp.connectDomains; if it loads it as an image, script, style or font, in resourceDomains',
          });
        continue;
      }
      const field = FIELD[finding.use];
      if (!(csp[field] ?? []).some((entry) => matches(entry, origin)))
        problems.push({
          severity: 'error',
          code: 'view-csp-missing',
          tool,
          ...where,
          field: `view.csp.${field}`,
          message: `the view ${verbOf(finding.use)} ${url}, and ${origin} is not in view.csp.${field}: the host's CSP would block it`,
          hint: IPV6_HOST.test(origin)
            ? `${origin} ${IPV6_REASON}: reach it by a host name (localhost for [::1]) and list that origin in view.csp.${field}`
            : `add '${origin}' to view.csp.${field}`,
        });
    }
  }
  return { problems, warnings };
}

function verbOf(use: Use): string {
  return { connect: 'connects to', resource: 'loads', frame: 'embeds', baseUri: 'sets its base to' }[use];
}

function findingsOf(piece: ViewPiece): Finding[] {
  const findings: Finding[] = [];
  const { text } = piece;
  if (piece.kind === 'html') {
    for (const [pattern, use] of HTML_URLS)
      for (const match of text.matchAll(pattern))
        if (ABSOLUTE.test(match[2] as string)) findings.push({ url: match[2], use, offset: match.index });
    findings.push(...cssFindings(text));
    // Inline scripts are read as scripts, at their place in the markup.
    for (const match of text.matchAll(INLINE_SCRIPT)) {
      const start = match.index + (match[0].length - (match[1] as string).length - '</script>'.length);
      for (const finding of scriptFindings(match[1] as string))
        findings.push({ ...finding, offset: start + finding.offset });
    }
    return findings;
  }
  return piece.kind === 'style' ? cssFindings(text) : scriptFindings(text);
}

function cssFindings(text: string): Finding[] {
  return [...text.matchAll(CSS_URL)].map((match) => ({
    url: match[3] as string,
    use: 'resource' as const,
    offset: match.index,
  }));
}

function scriptFindings(text: string): Finding[] {
  const findings: Finding[] = [];
  for (const match of text.matchAll(SCRIPT_URL)) {
    const url = match[2] as string;
    const before = text.slice(Math.max(0, match.index - 80), match.index);
    findings.push({ url, offset: match.index, ...useOf(url, before) });
  }
  for (const match of text.matchAll(CONNECTS)) {
    const after = text.slice(match.index + match[0].length, match.index + match[0].length + 12);
    // A literal URL is a finding above; anything else is a value the scan cannot follow.
    if (/^["'`](?:https?|wss?):\/\//i.test(after)) continue;
    const call = match[1] ? match[1].replace(/\s+/g, ' ') : 'XMLHttpRequest.open';
    findings.push({ offset: match.index, unresolved: `${call}(…) of a URL built at run time` });
  }
  return findings;
}

function useOf(url: string, before: string): { use?: Use } {
  if (/^wss?:/i.test(url)) return { use: 'connect' };
  if (/(?:\bfetch|WebSocket|EventSource|sendBeacon)\(\s*$|\.open\(\s*["'][A-Za-z]+["']\s*,\s*$/.test(before))
    return { use: 'connect' };
  if (/\bsrc\s*[:=]\s*$/.test(before)) return { use: /["']iframe["']/i.test(before) ? 'frame' : 'resource' };
  if (/\b(?:srcset|poster)\s*[:=]\s*$/.test(before)) return { use: 'resource' };
  return {};
}

/** `https://api.example.com:8443`: a URL's scheme, host and port, or undefined when it has none. */
function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url.startsWith('//') ? `https:${url}` : url);
    return parsed.host === '' ? undefined : `${parsed.protocol}//${parsed.host}`;
  } catch {
    return undefined;
  }
}

/**
 * Whether a CSP entry allows an origin, as CSP Level 3 matches a source expression: a scheme alone
 * allows every host of it; otherwise the scheme, the host (or `*.` and what follows it) and the
 * port. A bracketed IPv6 host allows nothing: the CSP grammar has no IPv6 host, and browsers ignore
 * the entry.
 */
function matches(entry: string, origin: string): boolean {
  const [usedScheme = '', usedHost = ''] = origin.toLowerCase().split('://');
  const listed = entry.toLowerCase();
  if (/^[a-z][a-z0-9+.-]*:$/.test(listed)) return schemeAllows(listed.slice(0, -1), usedScheme);
  const [scheme = '', rest = ''] = listed.split('://');
  if (rest === '' || rest.startsWith('[') || !schemeAllows(scheme, usedScheme)) return false;
  if (rest.startsWith('*.')) return usedHost.endsWith(rest.slice(1)) && usedHost.length > rest.length - 1;
  return rest === usedHost;
}

/** CSP Level 3's scheme-part matching: the same scheme, or a secure one where its plain one is listed. */
function schemeAllows(listed: string, used: string): boolean {
  if (listed === used) return true;
  if (listed === 'http') return used === 'https';
  if (listed === 'ws') return used === 'wss' || used === 'http' || used === 'https';
  return listed === 'wss' && used === 'https';
}

function strippedReason(origin: string): string | undefined {
  if (/^blob:$/i.test(origin) || /^data:$/i.test(origin)) return "is a scheme hosts strip from a view's CSP";
  if (IPV6_HOST.test(origin)) return IPV6_REASON;
  if (/^ws:/i.test(origin)) return 'is plain ws:, which hosts strip or rewrite to wss:';
  if (/^http:$/i.test(origin))
    return 'is plain http: for every host, which hosts strip or upgrade (mixed content): list the origins, over https';
  const http = /^http:\/\/([^/:]+)/i.exec(origin);
  if (http && !LOOPBACK.test(http[1] as string))
    return 'is plain http: outside loopback, which hosts strip or upgrade (mixed content)';
  return undefined;
}

/** Maps an offset of a piece to a source file and line: through its source map, or its own lines. */
function placer(piece: ViewPiece): (offset: number) => { file?: string; line?: number } {
  const lineStarts = [0];
  for (let index = piece.text.indexOf('\n'); index !== -1; index = piece.text.indexOf('\n', index + 1))
    lineStarts.push(index + 1);
  const position = (offset: number) => {
    let line = 0;
    while (line + 1 < lineStarts.length && (lineStarts[line + 1] as number) <= offset) line++;
    return { line: line + 1, column: offset - (lineStarts[line] as number) };
  };
  if (piece.file) {
    const file = piece.file;
    return (offset) => ({ file, line: position(offset).line });
  }
  const map = piece.map ? new TraceMap(piece.map) : undefined;
  return (offset) => {
    if (!map) return {};
    const found = originalPositionFor(map, position(offset));
    return found.source === null
      ? {}
      : { file: found.source, ...(found.line === null ? {} : { line: found.line }) };
  };
}
