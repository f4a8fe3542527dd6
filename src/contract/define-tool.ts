import type { ContractSchema } from './schema-types.js';
import { TOOL_CONTRACT_BRAND, type ToolContract, type ToolDefinition } from './types.js';

/**
 * Declares a tool. The result is a frozen contract; toolprep finds it at build time, checks it and
 * prepares its presentation. It does no work at import time, so tool files stay cheap to load.
 */
export function defineTool<
  Input extends ContractSchema | undefined = undefined,
  Params extends ContractSchema | undefined = undefined,
  Output extends ContractSchema | undefined = undefined,
>(definition: ToolDefinition<Input, Params, Output>): ToolContract<Input, Params, Output> {
  const contract: ToolDefinition<Input, Params, Output> = { ...definition };
  if (definition.annotations) contract.annotations = Object.freeze({ ...definition.annotations });
  if (definition.meta) contract.meta = Object.freeze({ ...definition.meta });
  if (Array.isArray(definition.icons)) contract.icons = Object.freeze([...definition.icons]);
  if (Array.isArray(definition.scopes)) contract.scopes = Object.freeze([...definition.scopes]);
  if (typeof definition.profiles === 'object' && definition.profiles !== null)
    contract.profiles = Object.freeze({ ...definition.profiles });
  if (typeof definition.task === 'object' && definition.task !== null)
    contract.task = Object.freeze({ ...definition.task });
  // Not enumerable, so that the brand stays out of keys, spreads and JSON.
  Object.defineProperty(contract, TOOL_CONTRACT_BRAND, { value: 'contract' });
  return Object.freeze(contract) as ToolContract<Input, Params, Output>;
}

/** True for a value made by `defineTool`, from this copy of toolprep or another. */
export function isToolContract(value: unknown): value is ToolContract {
  return (
    typeof value === 'object' && value !== null && (value as ToolContract)[TOOL_CONTRACT_BRAND] === 'contract'
  );
}
