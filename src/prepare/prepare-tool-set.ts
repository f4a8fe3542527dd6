import { builderOf } from '../adapters/builders.js';
import { parseOptions, prepareOptionsSchema } from '../config/options.js';
import type { ToolContract } from '../contract/types.js';
import { MANIFEST_FORMAT } from '../manifest/manifest.js';
import type { PreparedToolSet } from '../manifest/tool-set.js';
import { prepareExtension } from './extension.js';
import { type PrepareToolOptions, prepareTool } from './prepare-tool.js';

/**
 * What the generated module's `tools` gives, made in this process from contracts at hand (by export
 * name): for scripts and tests with no build step. The generator is the way for a server: it
 * prepares once, at build time, and loads each contract on its tool's first call.
 */
export function prepareToolSet(
  contracts: Readonly<Record<string, ToolContract>>,
  options: Omit<PrepareToolOptions, 'exportName' | 'description'> = {},
): PreparedToolSet {
  const { warn: _warn, ...settings } = options;
  const { extend } = parseOptions(prepareOptionsSchema, settings, 'prepareToolSet options');
  const prepared = Object.entries(contracts).map(([exportName, contract]) => ({
    contract,
    tool: prepareTool(contract, { ...options, exportName }),
  }));
  const extension = prepareExtension(extend);
  // The run-time adapters of every library the contracts and the extension keys are written with.
  const schemas = [
    ...Object.values(contracts).flatMap((contract) => [contract.input, contract.params, contract.output]),
    extend?.schema,
  ];
  const adapters = new Set(schemas.flatMap((schema) => builderOf(schema)?.runtime ?? []));
  return {
    format: MANIFEST_FORMAT,
    extensionKeys: extension.keys,
    prepared: prepared.map(({ tool }) => tool),
    load: Object.fromEntries(prepared.map(({ tool, contract }) => [tool.name, () => contract])),
    adapters: [...adapters],
  };
}
