import { expect, test } from 'vitest';
import { conformance } from '../../scripts/conformance.mjs';

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16, on a Node 22 it
 * installs once) against a server made with toolprep's helpers and features of its own, and the
 * same server with its tools registered the SDK's way: `npm run conformance` prints the table.
 */
test('every active scenario of the official conformance suite passes, as the SDK baseline’s do', async () => {
  const { active, regressions, rows } = await conformance();
  expect(active.length).toBeGreaterThanOrEqual(30);
  expect(regressions).toEqual([]);
  expect(active.filter((row) => !row.toolprep?.passed).map((row) => row.scenario)).toEqual([]);
  // The pending scenarios run too; toolprep keeps JSON Schema 2020-12 documents as they are.
  expect(rows.find((row) => row.scenario === 'json-schema-2020-12')?.toolprep?.passed).toBe(true);
}, 300_000);
