export const REPO: string;
export const BUILD_PACKAGE: string;
export function linkPackages(dir: string): void;
export function packPackages(destination: string): Record<string, string>;
export function bundleServers(dir: string, entryPoints: string[], outdir?: string): Promise<void>;
