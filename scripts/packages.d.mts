export const REPO: string;
export const BUILD_PACKAGE: string;
export function linkPackages(dir: string): void;
export function packPackages(destination: string): Record<string, string>;
