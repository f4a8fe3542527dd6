import type { MockLanguageModelV3 } from 'ai/test';

export function scriptedModel(
  Mock: typeof MockLanguageModelV3,
  toolName: string,
  args: object,
  prompts?: unknown[][],
): MockLanguageModelV3;

export function toolOutputShown(prompts: unknown[][]): unknown;
