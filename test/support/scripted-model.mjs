/**
 * A model, made with an AI SDK's own `MockLanguageModelV3` (passed in, so that each AI SDK version
 * tests with its own), that makes one tool call with these arguments (as the JSON text providers
 * send) and then stops. Each step's prompt is pushed to `prompts`: what the model was shown.
 * Plain JavaScript: AI SDK 7's test runs it under another Node.
 */
export function scriptedModel(MockLanguageModelV3, toolName, args, prompts = []) {
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  };
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      prompts.push(options.prompt);
      step++;
      return step === 1
        ? {
            content: [{ type: 'tool-call', toolCallId: 'call-1', toolName, input: JSON.stringify(args) }],
            finishReason: { unified: 'tool-calls', raw: undefined },
            usage,
            warnings: [],
          }
        : {
            content: [{ type: 'text', text: 'done' }],
            finishReason: { unified: 'stop', raw: undefined },
            usage,
            warnings: [],
          };
    },
  });
}

/** What the model was shown of the tool's result, in the prompt of the step after the call. */
export function toolOutputShown(prompts) {
  return prompts[1]?.find((message) => message.role === 'tool')?.content[0]?.output;
}
