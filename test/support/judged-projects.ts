import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generate, type ManifestTool } from '@toolprep/build';
// @ts-expect-error: a plain ES module script, without type declarations.
import { createContractProject } from '../../bench/contracts.mjs';
import type { ToolContract } from '../../src/contract/types.js';
import { copyFixture, REPO } from './fixture-project.js';

/**
 * The projects whose profile documents the providers' own code judges: every fixture whose config
 * chooses profiles, and the benches' generated tools. Each is built with `generate`, as the CLI
 * builds a user's project, and its contracts can be loaded for what runs on the model's answers.
 */
export interface JudgedProject {
  /** `fixtures/profiles`, `bench: 200 tools`. */
  readonly name: string;
  readonly tools: readonly ManifestTool[];
  /** The live contract of a tool of this project: what agents' Zod path and the parse read. */
  contractOf(tool: ManifestTool): Promise<ToolContract>;
  remove(): void;
}

/** The project in `dir` generated; removed again when it cannot be. */
async function generated(name: string, dir: string, remove: () => void): Promise<JudgedProject> {
  const result = await generate({ root: dir, cache: false }).catch((error: unknown) => {
    remove();
    throw error;
  });
  const { manifest } = result;
  if (!manifest || result.config.profiles.length === 0) {
    remove();
    const problems = result.problems.map((problem) => problem.message).join('; ');
    throw new Error(`${name}: ${manifest ? 'no profiles configured' : `generate failed: ${problems}`}`);
  }
  return {
    name,
    tools: manifest.tools,
    contractOf: async (tool) => {
      const [file = '', exportName = ''] = tool.source.split('#');
      const module = (await import(pathToFileURL(path.join(dir, file)).href)) as Record<string, unknown>;
      return module[exportName] as ToolContract;
    },
    remove,
  };
}

/** Every `fixtures/<name>/` whose `toolprep.config.*` chooses profiles, generated in a copy. */
export async function fixtureProjects(): Promise<JudgedProject[]> {
  const names = readdirSync(path.join(REPO, 'fixtures')).filter((name) =>
    readdirSync(path.join(REPO, 'fixtures', name)).some(
      (file) =>
        /^toolprep\.config\.[cm]?[jt]s$/.test(file) &&
        /\bprofiles\s*:/.test(readFileSync(path.join(REPO, 'fixtures', name, file), 'utf8')),
    ),
  );
  return buildInTurn(
    names.map((name) => () => {
      const project = copyFixture(name);
      return generated(`fixtures/${name}`, project.dir, project.remove);
    }),
  );
}

/**
 * The benches' generated tools (bench/contracts.mjs): the 200 tools of the stateless and start-up
 * benches and the 53 tools of 25 fields of the MCP 2026 bench, with the records of enum keys that
 * every profile can show (`profiles: true`); and those 53 as the MCP bench builds them, records of
 * free keys included, under the two profiles that take free keys.
 */
export async function benchProjects(): Promise<JudgedProject[]> {
  const project = async (name: string, count: number, options: object, profiles?: readonly string[]) => {
    const dir: string = createContractProject(count, options);
    if (profiles)
      writeFileSync(
        path.join(dir, 'toolprep.config.ts'),
        `export default { profiles: ${JSON.stringify(profiles)} };\n`,
      );
    return generated(name, dir, () => rmSync(dir, { recursive: true, force: true }));
  };
  return buildInTurn([
    () => project('bench: 200 tools', 200, { profiles: true }),
    // 25 fields spend more optional parameters than anthropic-strict takes in one tool.
    () =>
      project('bench: 53 tools of 25 fields', 53, { profiles: true, fields: 25 }, [
        'openai-strict',
        'anthropic',
        'gemini',
        'gemini-openapi',
      ]),
    () =>
      project('bench: 53 tools of 25 fields, free-key records', 53, { fields: 25 }, ['anthropic', 'gemini']),
  ]);
}

/** Builds one project after another; when one fails, the ones built are removed. */
async function buildInTurn(builds: readonly (() => Promise<JudgedProject>)[]): Promise<JudgedProject[]> {
  const built: JudgedProject[] = [];
  try {
    for (const build of builds) built.push(await build());
  } catch (error) {
    for (const project of built) project.remove();
    throw error;
  }
  return built;
}
