/** Which tool names are accepted: `strict` is portable to every provider, `mcp` is the MCP rule. */
export type NameRule = 'strict' | 'mcp';

const NAME_PATTERNS: Record<NameRule, { pattern: RegExp; text: string; maxLength: number; invalid: RegExp }> =
  {
    strict: {
      pattern: /^[a-zA-Z0-9_-]{1,64}$/,
      text: '^[a-zA-Z0-9_-]{1,64}$',
      maxLength: 64,
      invalid: /[^a-zA-Z0-9_-]+/g,
    },
    mcp: {
      pattern: /^[a-zA-Z0-9_.-]{1,128}$/,
      text: '^[a-zA-Z0-9_.-]{1,128}$',
      maxLength: 128,
      invalid: /[^a-zA-Z0-9_.-]+/g,
    },
  };

/** `searchFiles` → `search_files`, `HTTPGet` → `http_get`, `readFile2` → `read_file2`. */
export function deriveToolName(exportName: string): string {
  return exportName
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/** Returns why `name` breaks the rule (quoting it, the rule and a fix), or undefined when it is fine. */
export function checkToolName(name: string, rule: NameRule): string | undefined {
  const { pattern, text } = NAME_PATTERNS[rule];
  if (pattern.test(name)) return undefined;
  const suggestion = suggestToolName(name, rule);
  const fix = suggestion ? `; use "${suggestion}" instead` : '';
  return `tool name "${name}" does not match ${text} (names: '${rule}')${fix}`;
}

function suggestToolName(name: string, rule: NameRule): string {
  const { invalid, maxLength } = NAME_PATTERNS[rule];
  return deriveToolName(name)
    .replace(invalid, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, maxLength);
}
