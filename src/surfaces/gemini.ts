import type { ToolRuntime } from '../runtime/runner.js';
import type { JsonSchema } from '../shared/json-schema/schema.js';
import { callThroughProfile, profileTools } from './profile-call.js';
import { type GeminiResponsePart, renderGeminiResult } from './tool-content.js';

/** A function declaration for Gemini (`config.tools[i].functionDeclarations`). */
export type GeminiFunctionDeclaration = {
  readonly name: string;
  readonly description: string;
} & ({ readonly parametersJsonSchema: JsonSchema } | { readonly parameters: JsonSchema });

export interface GeminiToolsOptions {
  /** Gemini's OpenAPI `parameters` (the `gemini-openapi` profile). Default: `parametersJsonSchema` (`gemini`). */
  readonly openapi?: boolean;
}

const profileOf = (openapi: boolean | undefined) => (openapi ? 'gemini-openapi' : 'gemini');

/**
 * The tool for Gemini's `generateContent`: one entry of `config.tools`, every function declared
 * (but those left out of the profile). A tool that falls back from `gemini-openapi` is declared
 * with its `gemini` document as `parametersJsonSchema`: a declaration takes either field. Gemini
 * has no deferral, so a tool the build deferred is declared whole, as every other.
 */
export function geminiTools(
  runtime: ToolRuntime,
  { openapi }: GeminiToolsOptions = {},
): { functionDeclarations: GeminiFunctionDeclaration[] } {
  return {
    functionDeclarations: profileTools(runtime, profileOf(openapi)).map(({ tool, parameters, fallback }) => ({
      name: tool.name,
      description: tool.description,
      ...(openapi && fallback === undefined ? { parameters } : { parametersJsonSchema: parameters }),
    })),
  };
}

/**
 * Runs a `functionCall` part through the runner, the profile's inverse steps first (`null` for a
 * key left out), and returns the `functionResponse` part to send back: `{ output }` (the text) or
 * `{ error }`, and where the tool returned images (PNG, JPEG, WebP) or PDF documents, those as
 * `parts` of inline data (Gemini 3's multimodal function responses); other media is named by a
 * placeholder in the output.
 */
export async function runGeminiFunctionCall(
  runtime: ToolRuntime,
  call: { readonly id?: string; readonly name?: string; readonly args?: Record<string, unknown> },
  { openapi, context }: GeminiToolsOptions & { readonly context?: unknown } = {},
): Promise<{
  functionResponse: {
    id?: string;
    name: string;
    response: { output: string } | { error: string };
    parts?: GeminiResponsePart[];
  };
}> {
  const name = call.name ?? '';
  const reply = await callThroughProfile(runtime, name, call.args ?? {}, profileOf(openapi), context);
  return {
    functionResponse: {
      ...(call.id === undefined ? {} : { id: call.id }),
      name,
      ...(reply.ok ? renderGeminiResult(reply.value) : { response: { error: reply.text } }),
    },
  };
}
