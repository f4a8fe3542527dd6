export const VERSION: string;
export function requestHeaders(
  method: string,
  params?: Record<string, unknown>,
  extra?: Record<string, string>,
): Record<string, string>;
export function requestMeta(capabilities?: Record<string, unknown>): Record<string, unknown>;
