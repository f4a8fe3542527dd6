import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { BUILD_PACKAGE, bundleServers, linkPackages, REPO } from '../../scripts/packages.mjs';

export { BUILD_PACKAGE, linkPackages, REPO };
/** The built `toolprep` command, from `@toolprep/build`; `REPO` itself is the built `toolprep`. */
export const CLI = path.join(BUILD_PACKAGE, 'dist/src/cli/main.js');

/** Writes each file of a project (its path in `dir` → its text), with its folders. */
export function writeFiles(dir: string, files: Readonly<Record<string, string>>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
}

export interface FixtureProject {
  readonly dir: string;
  read(file: string): string;
  write(file: string, text: string): void;
  /** Runs the built toolprep CLI in the project, as a user would. */
  cli(...args: string[]): { status: number | null; stdout: string; stderr: string };
  remove(): void;
}

/**
 * Copies a fixture folder to a fresh temporary project whose node_modules link both packages (this
 * repository, built) and zod, so that the CLI runs on it exactly as on a user's project. `zod`
 * names the copy of this repository's node_modules the project gets as its `zod` (`zod3` for zod
 * 3.23.8, `zod325` for zod 3.25).
 */
export function copyFixture(name: string, { zod = 'zod' }: { zod?: string } = {}): FixtureProject {
  const dir = mkdtempSync(path.join(tmpdir(), `toolprep-${name.replaceAll('/', '-')}-`));
  cpSync(path.join(REPO, 'fixtures', name), dir, { recursive: true });
  linkPackages(dir);
  symlinkSync(path.join(REPO, 'node_modules', zod), path.join(dir, 'node_modules/zod'), 'dir');
  return {
    dir,
    read: (file) => readFileSync(path.join(dir, file), 'utf8'),
    write: (file, text) => writeFileSync(path.join(dir, file), text),
    cli: (...args) => {
      const result = spawnSync(process.execPath, [CLI, ...args], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      });
      return { status: result.status, stdout: result.stdout, stderr: result.stderr };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The views fixture, with ext-apps (whose `App` its views are written with) linked. */
export function viewsProject(): FixtureProject {
  const project = copyFixture('views');
  mkdirSync(path.join(project.dir, 'node_modules/@modelcontextprotocol'), { recursive: true });
  symlinkSync(
    path.join(REPO, 'node_modules/@modelcontextprotocol/ext-apps'),
    path.join(project.dir, 'node_modules/@modelcontextprotocol/ext-apps'),
    'dir',
  );
  return project;
}

/**
 * A fixture project with the MCP SDKs of this repository linked (both majors) and its tools
 * generated, ready to bundle a server of `files` (name → source) into `out/` with esbuild.
 */
export async function mcpServerProject(name: string, files: Record<string, string>): Promise<FixtureProject> {
  const project = copyFixture(name);
  symlinkSync(
    path.join(REPO, 'node_modules/@modelcontextprotocol'),
    path.join(project.dir, 'node_modules/@modelcontextprotocol'),
  );
  const generated = project.cli('generate', '--quiet');
  if (generated.status !== 0)
    throw new Error(`toolprep generate failed:\n${generated.stdout}${generated.stderr}`);
  for (const [file, text] of Object.entries(files)) project.write(`src/${file}.ts`, text);
  await bundleServers(
    project.dir,
    Object.keys(files)
      .filter((file) => file !== 'handlers')
      .map((file) => `src/${file}.ts`),
  );
  return project;
}

/** Starts a long-running CLI command and collects its output. */
export function startCli(project: FixtureProject, ...args: string[]) {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: project.dir,
    env: { ...process.env, NO_COLOR: '1' },
  });
  let stdout = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stdout += chunk;
  });
  const waitFor = async (pattern: RegExp, timeoutMs = 20_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(stdout)) {
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${pattern}; output so far:\n${stdout}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return {
    output: () => stdout,
    waitFor,
    stop: async () => {
      child.kill('SIGINT');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
