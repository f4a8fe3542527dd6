import { randomBytes } from 'node:crypto';
import { type FileHandle, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileStamp } from '../shared/build/file-stamp.js';

/** A file toolprep generates: the manifest, the modules, a view. */
export interface GeneratedFile {
  /** Relative to the root. */
  readonly path: string;
  /** Its whole text: for a file made in pieces, joined when first read. */
  readonly text: string;
  /** The text as its emitter made it (pieced.ts), compared and written without making it whole. */
  readonly pieces?: readonly string[];
}

/** A file made of `pieces`, its text joined only if something reads it whole. */
export function piecedFile(path: string, pieces: readonly string[]): GeneratedFile {
  let text: string | undefined;
  return {
    path,
    pieces,
    get text() {
      text ??= pieces.join('');
      return text;
    },
  };
}

/**
 * What a long-lived writer knows of each file it last read or wrote: its text, and its stamp then.
 * While the stamp holds, the file need not be read again to compare (5 MB at 1,000 tools).
 */
export type WriteMemo = Map<string, { readonly file: GeneratedFile; readonly stamp: string }>;

/** The temporary file an output is written through ends so: a watcher must ignore it too. */
export const TEMPORARY_SUFFIX = /\.[0-9a-f]{8}\.tmp$/;

/**
 * Writes each file only when its bytes differ, through a temporary file and a rename, so that a
 * reader (a watcher, a bundler) never sees half a file and an unchanged file keeps its mtime.
 * Returns the paths written.
 */
export async function writeChangedFiles(
  root: string,
  files: readonly GeneratedFile[],
  memo?: WriteMemo,
): Promise<string[]> {
  const written: string[] = [];
  for (const file of files) {
    const target = path.resolve(root, file.path);
    const known = memo?.get(target);
    const kept = known && known.stamp === fileStamp(target) ? piecesOf(known.file) : undefined;
    const onDisk = kept ?? (await readText(target).then((text) => (text === undefined ? undefined : [text])));
    if (onDisk === undefined || !sameText(onDisk, piecesOf(file))) {
      await mkdir(path.dirname(target), { recursive: true });
      const temporary = `${target}.${randomBytes(4).toString('hex')}.tmp`;
      try {
        await writePieces(temporary, piecesOf(file));
        await rename(temporary, target);
      } finally {
        await rm(temporary, { force: true });
      }
      written.push(file.path);
    }
    memo?.set(target, { file, stamp: fileStamp(target) });
  }
  return written;
}

const piecesOf = (file: GeneratedFile): readonly string[] => file.pieces ?? [file.text];

/** Whether two texts in pieces are the same text, however each is cut, without joining either. */
function sameText(one: readonly string[], other: readonly string[]): boolean {
  // Piece i of one from offset at, piece j of other from offset bt.
  let i = 0;
  let j = 0;
  let at = 0;
  let bt = 0;
  for (;;) {
    while (i < one.length && at === (one[i] as string).length) {
      i++;
      at = 0;
    }
    while (j < other.length && bt === (other[j] as string).length) {
      j++;
      bt = 0;
    }
    if (i === one.length || j === other.length) return i === one.length && j === other.length;
    const a = one[i] as string;
    const b = other[j] as string;
    const length = Math.min(a.length - at, b.length - bt);
    // A piece kept from the last run is the same string: compared at once.
    if (a.slice(at, at + length) !== b.slice(bt, bt + length)) return false;
    at += length;
    bt += length;
  }
}

/** The bytes a write is encoded into before it goes out: pieces of a few kilobytes each, most of them. */
const WRITE_CHUNK_BYTES = 1 << 20;

/** Writes `pieces` to `file`, encoded a chunk at a time. */
async function writePieces(file: string, pieces: readonly string[]): Promise<void> {
  const handle = await open(file, 'w');
  try {
    const chunk = Buffer.allocUnsafe(WRITE_CHUNK_BYTES);
    let used = 0;
    // A character of two UTF-16 units cut between two pieces is encoded whole, with the next.
    let held = '';
    for (const [index, whole] of pieces.entries()) {
      let piece = held + whole;
      held = '';
      const last = piece.charCodeAt(piece.length - 1);
      if (last >= 0xd800 && last <= 0xdbff && index < pieces.length - 1) {
        held = piece.slice(-1);
        piece = piece.slice(0, -1);
      }
      // UTF-8 takes at most 3 bytes for each UTF-16 unit.
      const most = piece.length * 3;
      if (used + most > chunk.length && used > 0) {
        await writeAll(handle, chunk.subarray(0, used));
        used = 0;
      }
      if (most > chunk.length) await writeAll(handle, Buffer.from(piece));
      else used += chunk.write(piece, used, 'utf8');
    }
    if (used > 0) await writeAll(handle, chunk.subarray(0, used));
  } finally {
    await handle.close();
  }
}

/** A write may take fewer bytes than it was given: the rest goes again. */
async function writeAll(handle: FileHandle, bytes: Buffer): Promise<void> {
  for (let done = 0; done < bytes.length; )
    done += (await handle.write(bytes, done, bytes.length - done)).bytesWritten;
}

export async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
