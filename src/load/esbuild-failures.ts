import type { Message } from 'esbuild';

/** Why a build failed, at the place esbuild names (its file as esbuild wrote it) when it names one. */
export interface BuildFailure {
  readonly file?: string;
  readonly line?: number;
  readonly message: string;
}

/**
 * The errors of a failed esbuild build, each at its place: the one mapping of the loader, the
 * views' build and the surface page's bridge. Anything else thrown is not the project's to fix
 * (esbuild crashed, or a bug in toolprep), so it is thrown again rather than read as no errors.
 */
export function esbuildFailures(error: unknown): readonly BuildFailure[] {
  const errors = (error as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(errors)) throw error;
  return (errors as Message[]).map((message) => ({
    ...(message.location ? { file: message.location.file, line: message.location.line } : {}),
    message: message.text,
  }));
}
