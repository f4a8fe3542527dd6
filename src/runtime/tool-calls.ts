import type { ProfileName } from '../manifest/profiles.js';
import type { PreparedSearch } from '../manifest/search-index.js';
import {
  announce,
  type CallState,
  Failure,
  fail,
  startCall,
  succeed,
  thrownFailure,
} from './call-failure.js';
import {
  isPromiseLike,
  type LoadedTool,
  loadTool,
  parseArguments,
  parseExtension,
  parseOutput,
  repairArguments,
  resolveTool,
  runHandler,
  type Served,
} from './call-stages.js';
import type { ToolHooks, ToolRuntime } from './call-types.js';
import { reportFailures } from './failure-report.js';
import type { Audience } from './visibility.js';

/** A runtime's `call` and `check`: loaded on its first call, so that listing the tools needs none of it. */
export type ToolCalls = Pick<ToolRuntime, 'call' | 'check'>;

export function createToolCalls(
  served: Served,
  givenHooks: ToolHooks | undefined,
  search: PreparedSearch | undefined,
): ToolCalls {
  const hooks: ToolHooks = { error: reportFailures(), ...givenHooks };
  const searchTool = search?.tool;
  // A group's endpoint lists no search over the whole set, so it calls none (runner.ts's list).
  const isSearch = (name: string, audience: Audience | undefined): boolean =>
    searchTool?.name === name && !served.byName.has(name) && audience?.group === undefined;
  // Loaded on the first search: a server that never searches does not load the code either.
  const answerSearch = async (
    args: unknown,
    profile: ProfileName | undefined,
    audience: Audience | undefined,
  ) =>
    (await import('./search.js')).answerSearch(
      search as PreparedSearch,
      served.tools,
      args,
      profile,
      audience,
    );
  const searchCall = async (
    name: string,
    args: unknown,
    context: unknown,
    profile: ProfileName | undefined,
    audience: Audience | undefined,
  ) => {
    const call = startCall(name, args, context);
    const answer = await answerSearch(args, profile, audience);
    if (answer instanceof Failure) return fail(hooks, call, answer);
    announce(hooks, call);
    return succeed(hooks, call, args, answer);
  };

  return {
    async call(name, args, context, { profile, audience } = {}) {
      if (isSearch(name, audience)) return searchCall(name, args, context, profile, audience);
      const call = startCall(name, args, context);
      try {
        const parsed = await parsedCall(served, call, profile, audience);
        if (parsed instanceof Failure) return fail(hooks, call, parsed);
        announce(hooks, call);
        call.step = 'handler';
        const running = runHandler(served, call, parsed.args);
        const returned = isPromiseLike(running) ? await running : running;
        call.step = 'output';
        const output = parseOutput(served, name, parsed.loaded, returned);
        const value = isPromiseLike(output) ? await output : output;
        if (value instanceof Failure) return fail(hooks, call, value);
        return succeed(hooks, call, parsed.args, value);
      } catch (cause) {
        return fail(hooks, call, await thrownFailure(call, cause));
      }
    },
    async check(name, args, context, { profile, audience } = {}) {
      if (isSearch(name, audience)) {
        const answer = await answerSearch(args, profile, audience);
        if (answer instanceof Failure) return fail(hooks, startCall(name, args, context), answer);
        return { ok: true, value: args as Readonly<Record<string, unknown>> };
      }
      const call = startCall(name, args, context);
      try {
        const parsed = await parsedCall(served, call, profile, audience);
        if (parsed instanceof Failure) return fail(hooks, call, parsed);
        return { ok: true, value: parsed.repaired };
      } catch (cause) {
        return fail(hooks, call, await thrownFailure(call, cause));
      }
    },
  };
}

/**
 * The stages before the handler, which are all of `check`: resolve, load, repair, extension, parse.
 * A stage's value is awaited only where it is a promise (see call-stages.ts).
 */
async function parsedCall(
  served: Served,
  call: CallState,
  profile: ProfileName | undefined,
  audience: Audience | undefined,
): Promise<Failure | { loaded: LoadedTool; repaired: Record<string, unknown>; args: object }> {
  const tool = resolveTool(served, call.tool, audience);
  if (tool instanceof Failure) return tool;
  call.step = 'load';
  const loading = loadTool(served, tool, profile);
  const loaded = isPromiseLike(loading) ? await loading : loading;
  if (loaded instanceof Failure) return loaded;
  call.step = 'repair';
  const repaired = repairArguments(served, tool, loaded, call.args, profile);
  if (repaired instanceof Failure) return repaired;
  call.step = 'extension';
  const extended = parseExtension(served, call, tool, repaired);
  const rest = isPromiseLike(extended) ? await extended : extended;
  if (rest instanceof Failure) return rest;
  call.step = 'parse';
  const parsing = parseArguments(served, tool, loaded, rest, repaired);
  const args = isPromiseLike(parsing) ? await parsing : parsing;
  if (args instanceof Failure) return args;
  return { loaded, repaired, args };
}
