import { expect, test } from 'vitest';
import { conformance } from '../../scripts/conformance.mjs';

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16 for the 2025
 * revisions, 0.2.0-alpha.12 for 2026-07-28, on a Node 22 it installs once) against a server made
 * with toolprep's helpers and features of its own, the same server with its tools registered the
 * SDK's way, and toolprep's tools on a user's SDK v2 server: `npm run conformance` prints the tables.
 */
test('every active scenario of the official conformance suite passes, as the SDK baseline’s do', async () => {
  const { active, regressions, rows, modern } = await conformance();
  expect(active.length).toBeGreaterThanOrEqual(30);
  expect(regressions).toEqual([]);
  expect(active.filter((row) => !row.toolprep?.passed).map((row) => row.scenario)).toEqual([]);
  // The pending scenarios run too; toolprep keeps JSON Schema 2020-12 documents as they are.
  expect(rows.find((row) => row.scenario === 'json-schema-2020-12')?.toolprep?.passed).toBe(true);

  // 2026-07-28 (0.2.0-alpha.12): every required scenario passes with toolprep's tools on an SDK v2
  // server; toolprep's own serving passes all but those of the resources, prompts and completions
  // it does not serve on 2026-07-28 (the fixture's are an SDK v1 server's, which serves 2025 only).
  const required = modern.filter((row) => row.required);
  expect(required).toHaveLength(37);
  expect(required.filter((row) => !row['toolprep-on-sdk-v2']?.passed).map((row) => row.scenario)).toEqual([]);
  expect(required.filter((row) => !row.toolprep?.passed).map((row) => row.scenario)).toEqual([
    'caching',
    'completion-complete',
    'input-required-result-non-tool-request',
    'prompts-get-embedded-resource',
    'prompts-get-simple',
    'prompts-get-with-args',
    'prompts-get-with-image',
    'prompts-list',
    'resources-list',
    'resources-read-binary',
    'resources-read-text',
    'resources-templates-read',
  ]);
}, 300_000);
