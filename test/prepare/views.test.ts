import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/contract/define-tool.js';
import type { ViewCsp } from '../../src/manifest/tool-set.js';
import { prepareToolSet } from '../../src/prepare/prepare-tool-set.js';
import { proveViewCsp } from '../../src/prepare/view-csp.js';
import { declaredViewOf } from '../../src/prepare/view-declaration.js';
import type { Problem } from '../../src/shared/build/problems.js';
import type { ViewPiece } from '../../src/shared/build/view-piece.js';

const html = (text: string): ViewPiece => ({ kind: 'html', text, file: 'src/view.html' });
const brief = (problems: readonly Problem[]) =>
  problems.map(({ code, line, field }) => ({ code, line, ...(field ? { field } : {}) }));

describe('the CSP proof of a built view', () => {
  test.each<[string, string, ViewCsp, ReturnType<typeof brief>, ReturnType<typeof brief>]>([
    [
      'a declared fetch',
      "<script>fetch('https://api.a.com/x')</script>",
      { connectDomains: ['https://api.a.com'] },
      [],
      [],
    ],
    [
      'a fetch of an undeclared origin',
      "<p>\n<script>fetch('https://api.a.com/x')</script>",
      {},
      [{ code: 'view-csp-missing', line: 2, field: 'view.csp.connectDomains' }],
      [],
    ],
    [
      'an origin in the wrong field',
      "<script>new WebSocket('wss://live.a.com')</script>",
      { resourceDomains: ['wss://live.a.com'] },
      [{ code: 'view-csp-missing', line: 1, field: 'view.csp.connectDomains' }],
      [],
    ],
    [
      'an image from a CDN',
      '<img src="https://cdn.a.com/x.png">',
      { resourceDomains: ['https://*.a.com'] },
      [],
      [],
    ],
    [
      'an image from an undeclared CDN',
      '<img src="https://cdn.a.com/x.png">',
      { connectDomains: ['https://cdn.a.com'] },
      [{ code: 'view-csp-missing', line: 1, field: 'view.csp.resourceDomains' }],
      [],
    ],
    [
      'a frame',
      '<iframe src="https://maps.a.com/embed"></iframe>',
      {},
      [{ code: 'view-csp-missing', line: 1, field: 'view.csp.frameDomains' }],
      [],
    ],
    [
      'a font in CSS',
      '<style>@font-face { src: url(https://fonts.a.com/f.woff2) }</style>',
      {},
      [{ code: 'view-csp-missing', line: 1, field: 'view.csp.resourceDomains' }],
      [],
    ],
    [
      'a fetch of a URL built at run time',
      '<script>\nconst u = location.hash;\nfetch(u)</script>',
      {},
      [],
      [{ code: 'view-csp-unresolved', line: 3 }],
    ],
    [
      'an XMLHttpRequest of a variable',
      '<script>x.open("GET", url)</script>',
      {},
      [],
      [{ code: 'view-csp-unresolved', line: 1 }],
    ],
    [
      'a URL whose use the scan cannot tell',
      "<script>const api = 'https://api.a.com'</script>",
      {},
      [],
      [{ code: 'view-csp-unresolved', line: 1 }],
    ],
    [
      'entries hosts strip or rewrite',
      '<p></p>',
      { connectDomains: ['ws://a.com', 'http://a.com', 'http://localhost:3000'], resourceDomains: ['data:'] },
      [],
      [
        { code: 'view-csp-stripped', line: undefined, field: 'view.csp.connectDomains' },
        { code: 'view-csp-stripped', line: undefined, field: 'view.csp.connectDomains' },
        { code: 'view-csp-stripped', line: undefined, field: 'view.csp.resourceDomains' },
      ],
    ],
    // CSP Level 3's matching: a scheme alone allows every host of it, and of its secure scheme.
    [
      'images from any https origin (a scheme alone)',
      '<img src="https://cdn.a.com/x.png"><img src="https://b.org/y.png">',
      { resourceDomains: ['https:'] },
      [],
      [],
    ],
    [
      'http: allows https (and is warned of)',
      "<script>fetch('https://api.a.com/x')</script>",
      { connectDomains: ['http:'] },
      [],
      [{ code: 'view-csp-stripped', line: undefined, field: 'view.csp.connectDomains' }],
    ],
    [
      'ws: allows wss (and is warned of)',
      "<script>new WebSocket('wss://live.a.com')</script>",
      { connectDomains: ['ws:'] },
      [],
      [{ code: 'view-csp-stripped', line: undefined, field: 'view.csp.connectDomains' }],
    ],
    [
      'a secure scheme alone does not allow its plain one',
      "<script>fetch('http://localhost:8080/x')</script>",
      { connectDomains: ['https:'] },
      [{ code: 'view-csp-missing', line: 1, field: 'view.csp.connectDomains' }],
      [],
    ],
    [
      'an entry in capitals',
      "<script>fetch('https://api.a.com/x')</script>",
      { connectDomains: ['HTTPS://API.A.com'] },
      [],
      [],
    ],
    [
      'an http loopback address with a port',
      "<script>fetch('http://127.0.0.1:3000/x')</script>",
      { connectDomains: ['http://127.0.0.1:3000'] },
      [],
      [],
    ],
    // Browsers ignore a bracketed IPv6 host in a CSP ("invalid source"): listing it allows nothing.
    [
      'an IPv6 loopback origin listed as it is',
      "<script>fetch('http://[::1]:3000/x')</script>",
      { connectDomains: ['http://[::1]:3000'] },
      [{ code: 'view-csp-missing', line: 1, field: 'view.csp.connectDomains' }],
      [{ code: 'view-csp-stripped', line: undefined, field: 'view.csp.connectDomains' }],
    ],
    [
      'an IPv6 origin allowed by its scheme (plain http: is warned of)',
      "<script>fetch('http://[::1]:3000/x')</script>",
      { connectDomains: ['http:'] },
      [],
      [{ code: 'view-csp-stripped', line: undefined, field: 'view.csp.connectDomains' }],
    ],
  ])('%s', (_name, text, csp, problems, warnings) => {
    const proof = proveViewCsp('view', [html(text)], csp);
    expect(brief(proof.problems)).toEqual(problems);
    expect(brief(proof.warnings)).toEqual(warnings);
  });

  test('a bundled script is placed at its source file and line through its source map', () => {
    // One line of output, mapped to src/a.ts line 3 from its first column.
    const map = JSON.stringify({ version: 3, sources: ['src/a.ts'], names: [], mappings: 'AAEA' });
    const proof = proveViewCsp('view', [{ kind: 'script', text: 'fetch("https://b.com/x")', map }], {});
    expect(proof.problems).toMatchObject([{ file: 'src/a.ts', line: 3, code: 'view-csp-missing' }]);
  });
});

describe("a contract's view", () => {
  const declared = (view: unknown) => {
    const problems: Problem[] = [];
    const contract = defineTool({ description: 'd', output: z.object({}), view: view as never });
    return { view: declaredViewOf('t', contract, problems), problems: brief(problems) };
  };

  test.each<[string, unknown, unknown]>([
    [
      'an entry alone',
      './v.html',
      { kind: 'own', entry: './v.html', csp: {}, permissions: [], visibility: ['model', 'app'] },
    ],
    [
      'every key, sorted and deduplicated',
      {
        entry: './v.tsx',
        csp: { connectDomains: ['https://b.com', 'https://a.com', 'https://a.com'] },
        permissions: ['microphone', 'camera'],
        visibility: ['app', 'model'],
        prefersBorder: false,
      },
      {
        kind: 'own',
        entry: './v.tsx',
        csp: { connectDomains: ['https://a.com', 'https://b.com'] },
        permissions: ['camera', 'microphone'],
        visibility: ['model', 'app'],
        prefersBorder: false,
      },
    ],
    [
      'a link to another view',
      { of: 'board', visibility: ['app'] },
      { kind: 'of', of: 'board', visibility: ['app'] },
    ],
    [
      'a scheme alone and an IPv6 host are origins',
      {
        entry: './v.html',
        csp: { connectDomains: ['https:', 'http://[::1]:3000', 'http://[::ffff:127.0.0.1]'] },
      },
      {
        kind: 'own',
        entry: './v.html',
        csp: { connectDomains: ['http://[::1]:3000', 'http://[::ffff:127.0.0.1]', 'https:'] },
        permissions: [],
        visibility: ['model', 'app'],
      },
    ],
  ])('%s', (_name, view, expected) => {
    expect(declared(view)).toEqual({ view: expected, problems: [] });
  });

  test.each<[string, unknown, string[]]>([
    ['an unknown key', { entry: './v.html', sandbox: true }, ['view.sandbox']],
    [
      'an unknown CSP field',
      { entry: './v.html', csp: { redirectDomains: [] } },
      ['view.csp.redirectDomains'],
    ],
    [
      'a path for an origin',
      { entry: './v.html', csp: { connectDomains: ['https://a.com/api'] } },
      ['view.csp.connectDomains[0]'],
    ],
    [
      'an IPv6 host without a scheme, or unclosed',
      { entry: './v.html', csp: { connectDomains: ['[::1]:3000', 'http://[::1:3000'] } },
      ['view.csp.connectDomains[0]', 'view.csp.connectDomains[1]'],
    ],
    ['an unknown visibility', { entry: './v.html', visibility: ['user'] }, ['view.visibility']],
    ['an empty visibility', { of: 'board', visibility: [] }, ['view.visibility']],
    ['an unknown permission', { entry: './v.html', permissions: ['usb'] }, ['view.permissions[0]']],
    ['an entry of another kind', './v.vue', ['view.entry']],
    ['a link with an entry', { of: 'board', entry: './v.html' }, ['view.entry']],
  ])('%s is an error naming the field', (_name, view, fields) => {
    const { view: result, problems } = declared(view);
    expect(result).toBeUndefined();
    expect(problems.map((problem) => [problem.code, problem.field])).toEqual(
      fields.map((field) => ['invalid-view', field]),
    );
  });
});

test('prepareToolSet, which builds no views, says it leaves a contract’s view out', () => {
  const warnings: Problem[] = [];
  const set = prepareToolSet(
    { board: defineTool({ description: 'd', output: z.object({}), view: './v.html' }) },
    { warn: (problem) => warnings.push(problem) },
  );
  expect(set.views).toBeUndefined();
  expect(set.prepared[0]?.view).toBeUndefined();
  expect(brief(warnings)).toEqual([{ code: 'view-link', line: undefined, field: 'view' }]);
});
