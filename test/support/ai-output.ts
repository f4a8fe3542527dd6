import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { aiTools } from 'toolprep/ai';
import type { ToolRuntime } from 'toolprep/runtime';
import { scriptedModel, toolOutputShown } from './scripted-model.mjs';

/** What an AI SDK model is shown of a call of `name` with no arguments: its tool output, one step later. */
export async function aiOutputShown(runtime: ToolRuntime, name: string): Promise<unknown> {
  const prompts: unknown[][] = [];
  await generateText({
    model: scriptedModel(MockLanguageModelV3, name, {}, prompts),
    tools: aiTools(runtime),
    prompt: name,
    stopWhen: stepCountIs(2),
  });
  return toolOutputShown(prompts);
}
