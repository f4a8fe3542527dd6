export const PNPM_VERSION: string;
export function node22(): string;
export function pnpm(): string;
