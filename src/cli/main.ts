#!/usr/bin/env node
import * as nodeModule from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type CommandContext, runCheck, runGenerate, runInspect } from './commands.js';
import { createOutput, printError } from './output.js';
import { runWatch } from './watch.js';

const COMMON = `
Options:
  --config <file>   the config file (default: toolprep.config.{ts,mts,js,mjs} in the root)
  --root <dir>      the project root (default: the working directory)
  --quiet           print only problems
  --no-cache        evaluate every contract file, ignoring node_modules/.cache/toolprep
  --allow-empty     accept a project with no tools (otherwise an error, so that a misconfigured
                    include never writes an empty manifest)
  --help            show this help
  --version         print toolprep's version`;

const MAIN_HELP = `toolprep: prepare LLM tool surfaces at build time

Usage: toolprep <command> [options]

Commands:
  generate          discover, load and prepare the tools; write the manifest and the module
  check             write nothing; exit 1 if the committed manifest or module is stale
                    (--explain: the rules the model cannot see, and the superset proof)
  inspect [name]    show the tools, or one tool's document, plan and size (--json for JSON,
                    --html <file> for a page of the whole surface)
  watch             regenerate whenever a source file changes
${COMMON}`;

const HELP: Record<string, string> = {
  '': MAIN_HELP,
  generate: `Usage: toolprep generate [options]\n\nDiscovers the tool contracts, prepares them and writes the manifest and the generated module\n(only when their bytes change). Exits 1 on any problem, listing every one.\n${COMMON}`,
  check: `Usage: toolprep check [--verbose] [--explain] [options]\n\nWrites nothing. Exits 0 when the committed manifest and module are current; otherwise exits 1\nwith what changed in the tool surface, its tokens before and after, and the unified diff. Use it\nin CI. A change that several tools share is written once, with the first of their names, and one\ndiff stands for the tools that changed alike.\n\n  --verbose         name every tool of a shared change, and print every tool's diff\n  --explain         also parse values each tool's documents describe with its own parser, and\n                    report every field where one is refused: a rule the model cannot see; and
                    validate values each contract accepts against every document toolprep emits
                    for it (a refusal is a bug in toolprep, and fails the command)
  --explain-ms <ms> the CPU time each tool's values may take (default 250)\n${COMMON}`,
  inspect: `Usage: toolprep inspect [name] [--json | --html <file>] [--sort name|size] [options]\n\nWithout a name, lists the tools with their size as shown to a model, under their groups with\neach group's total, then what each client strategy is sent before the first message and the\ntext the tools repeat with its cost; with a name, shows its presented document as a tree, its\ncoercion plan and its size.\n\n  --sort size       list the largest tools (and groups) first; default: by name\n  --json            print the manifest entry (or the whole manifest) as JSON\n  --html <file>     write one self-contained page of every tool as a model sees it, with its\n                    tokens against the budget, its plan, its hidden constraints, and the\n                    changes since the committed manifest\n${COMMON}`,
  watch: `Usage: toolprep watch [options]\n\nGenerates, then regenerates whenever a source file under the folders \`include\` searches, or the\nconfig file, is added, removed or changed. Its own output never triggers a run; on problems the\nlast good output stays in place.\n${COMMON}`,
};

export async function main(argv: readonly string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    process.stderr.write(`[toolprep] ${(error as Error).message}\n\n${MAIN_HELP}\n`);
    return 1;
  }
  const { values, positionals } = parsed;
  const [command = '', ...rest] = positionals;
  const output = createOutput(Boolean(values.quiet));
  if (values.version) {
    output.out(toolprepVersion());
    return 0;
  }
  if (values.help || command === '' || command === 'help') {
    output.out(HELP[command === 'help' ? (rest[0] ?? '') : command] ?? MAIN_HELP);
    return command === '' && !values.help ? 1 : 0;
  }
  const root = path.resolve(values.root ?? process.cwd());
  const context: CommandContext = {
    output,
    generateOptions: {
      root,
      configFile: values.config,
      cache: !values['no-cache'],
      ...(values['allow-empty'] ? { inline: { allowEmpty: true } } : {}),
    },
  };
  try {
    switch (command) {
      case 'generate':
        return await runGenerate(context);
      case 'check':
        return await runCheck(context, {
          verbose: Boolean(values.verbose),
          ...(values.explain
            ? { explain: values['explain-ms'] ? { milliseconds: Number(values['explain-ms']) } : {} }
            : {}),
        });
      case 'inspect': {
        const sort = values.sort ?? 'name';
        if (sort !== 'name' && sort !== 'size') {
          output.err(`[toolprep] inspect: --sort takes name or size, not "${sort}"`);
          return 1;
        }
        return await runInspect(context, rest[0], { json: Boolean(values.json), html: values.html, sort });
      }
      case 'watch': {
        const controller = new AbortController();
        process.once('SIGINT', () => controller.abort());
        process.once('SIGTERM', () => controller.abort());
        return await runWatch(context, controller.signal);
      }
      default:
        output.err(
          `[toolprep] unknown command "${command}"; the commands are generate, check, inspect, watch`,
        );
        return 1;
    }
  } catch (error) {
    printError(output, error);
    return 1;
  }
}

/** The version of the installed package (@toolprep/build, which holds this command), from its package.json. */
function toolprepVersion(): string {
  const packageJson = nodeModule.createRequire(import.meta.url)('@toolprep/build/package.json') as {
    version: string;
  };
  return packageJson.version;
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      config: { type: 'string' },
      root: { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      json: { type: 'boolean' },
      html: { type: 'string' },
      sort: { type: 'string' },
      explain: { type: 'boolean' },
      'explain-ms': { type: 'string' },
      verbose: { type: 'boolean' },
      'no-cache': { type: 'boolean' },
      'allow-empty': { type: 'boolean' },
      version: { type: 'boolean', short: 'v' },
    },
  });
}

// Node 22.1 and later keep what they compile for what loads on demand (TypeScript with ts-morph, the
// tokenizer's tables, the generator) in their compile cache, as \`tsc\` does: a second process, even
// a cold build, does not compile them again. NODE_DISABLE_COMPILE_CACHE=1 turns it off; Node 20 has none.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
process.exitCode = await main(process.argv.slice(2));
