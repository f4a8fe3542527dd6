import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGeneratorContext } from '../../src/generate/context.js';
import { surfaceReportPage } from '../../src/generate/report.js';
import { inspectInProcess } from '../support/cli-in-process.js';
import { copyFixture, type FixtureProject } from '../support/fixture-project.js';

/** Who may call each tool, as `inspect` and the report page show it (fixtures/generate/access). */

let project: FixtureProject;
beforeAll(() => {
  project = copyFixture('generate/access');
});
afterAll(() => project.remove());

describe('access is shown', () => {
  test('inspect lists it beside each tool that has it', async () => {
    const { status, stdout } = await inspectInProcess(project.dir);
    expect(status).toBe(0);
    const lineOf = (tool: string) =>
      stdout.split('\n').find((line) => line.trimStart().startsWith(`${tool} `));
    expect.soft(lineOf('admin_purge_notes')).toMatch(/needs scopes admin notes:write$/);
    expect.soft(lineOf('list_invoices')).toMatch(/needs scopes billing:read$/);
    expect.soft(lineOf('status')).toMatch(/public: callers without a token too$/);
    expect.soft(lineOf('echo')).toMatch(/src\/tools\/info\/echo\.ts#echo$/);
  });

  test.each([
    ['write_note', '  access: needs scopes notes:read notes:write'],
    ['status', '  access: public: callers without a token too'],
  ])('inspect %s says who may call it', async (tool, line) => {
    const { stdout } = await inspectInProcess(project.dir, tool);
    expect(stdout.split('\n')).toContain(line);
  });

  test('inspect of an open tool says nothing of access', async () => {
    const { stdout } = await inspectInProcess(project.dir, 'echo');
    expect(stdout).not.toContain('access:');
  });

  test('the report page shows it in each scoped or public tool’s line', async () => {
    const context = createGeneratorContext({ root: project.dir, write: false, cache: false });
    const { generation, config } = await context.run();
    if (!generation?.manifest || !config) throw new Error('the fixture did not generate');
    const page = surfaceReportPage({ manifest: generation.manifest, config, findings: [] });
    const metaOf = (tool: string) =>
      page.match(
        new RegExp(`<article class="tool"[^>]*data-tool="${tool}"[^]*?<p class="meta">([^]*?)</p>`),
      )?.[1] ?? '';
    expect(metaOf('list_notes')).toContain(' · needs scopes notes:read');
    expect(metaOf('status')).toContain(' · public: callers without a token too');
    expect(metaOf('echo')).not.toContain('scopes');
  });
});
