export function node22(): string;
