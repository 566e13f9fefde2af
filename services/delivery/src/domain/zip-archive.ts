import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { sanitizeFileName } from './file-name.js';

/** One file of an archive: its name inside it, its exact size, and how to read it when its turn comes. */
export interface ArchiveEntry {
  name: string;
  sizeBytes: number;
  open(): Promise<Readable>;
}

/**
 * Every entry's time: the archive's bytes then depend only on its files, whenever it is made.
 * (Its size never depends on the time; yazl writes DOS and Info-ZIP fields of fixed length.)
 */
const ENTRY_MTIME = new Date(Date.UTC(2024, 0, 1));

/** Stored, not deflated: the files are media and PDFs, and only stored entries have a size known in advance. */
const ENTRY_OPTIONS = { compress: false, mtime: ENTRY_MTIME, forceDosTimestamp: false } as const;

type StreamCallback = (error: unknown, stream: NodeJS.ReadableStream) => void;

/**
 * yazl 3.3.1 announces 76 bytes too many once the central directory reaches 64 KiB (it counts a
 * ZIP64 end record it then does not write), which would be a wrong Content-Length. A product's
 * files (at most MAX_FILES_PER_PRODUCT, names of at most 200 bytes) stay far below it; an archive
 * that could come near is refused. Each entry's record is at most 100 bytes besides its name.
 */
function assertSizeIsKnowable(entries: Pick<ArchiveEntry, 'name'>[]): void {
  const centralDirectoryBytes = entries.reduce(
    (bytes, entry) => bytes + 100 + Buffer.byteLength(entry.name),
    0,
  );
  if (centralDirectoryBytes >= 0xffff) throw new Error('too many files for one archive');
}

/**
 * The archive as yazl lays it out, and its exact final size. yazl asks for an entry's stream
 * when it reaches that entry, one at a time; the first is asked for at once.
 */
function layOut(
  entries: Pick<ArchiveEntry, 'name' | 'sizeBytes'>[],
  streamOf: (index: number, callback: StreamCallback) => void,
): { zipfile: ZipFile; sizeBytes: number } {
  assertSizeIsKnowable(entries);
  const zipfile = new ZipFile();
  entries.forEach((entry, index) =>
    zipfile.addReadStreamLazy(entry.name, { ...ENTRY_OPTIONS, size: entry.sizeBytes }, (callback) =>
      streamOf(index, callback),
    ),
  );
  let sizeBytes = -1;
  // Called during end() when every entry has a known size and is stored. @types/yazl 3.3 leaves
  // out the callback's argument: the size, or -1 when it cannot be known before the data.
  zipfile.end(undefined, (...reported: number[]) => {
    sizeBytes = reported[0] ?? -1;
  });
  if (sizeBytes < 0) throw new Error('the size of a stored archive should be known in advance');
  return { zipfile, sizeBytes };
}

/** The exact size in bytes of the archive `streamArchive` makes of these entries. */
export function archiveSize(entries: Pick<ArchiveEntry, 'name' | 'sizeBytes'>[]): number {
  // yazl asks for the first entry's stream at once; this archive is never read, so none is opened.
  return layOut(entries, () => undefined).sizeBytes;
}

/**
 * The archive made as it is read: each entry's stream is opened when its turn comes and read
 * through (never buffered, no temporary file). Destroying the archive — the client went away —
 * destroys the entry being read and opens no other; a storage failure destroys the archive with
 * that error (its headers are gone: the response can only be cut short).
 */
export function streamArchive(entries: ArchiveEntry[]): { body: Readable; sizeBytes: number } {
  let reading: Readable | null = null;
  let closed = false;
  const { zipfile, sizeBytes } = layOut(entries, (index, callback) => {
    // Always after this function has returned (the first entry is asked for within layOut).
    Promise.resolve()
      .then(() => entries[index]!.open())
      .then((stream) => {
        if (closed) {
          stream.destroy();
          return;
        }
        reading = stream;
        stream.on('error', (error) => body.destroy(error));
        callback(null, stream);
      })
      .catch((error: unknown) => body.destroy(error as Error));
  });
  // yazl's output is a PassThrough, typed as the older NodeJS.ReadableStream.
  const body = zipfile.outputStream as Readable;
  zipfile.on('error', (error: Error) => body.destroy(error));
  body.once('close', () => {
    closed = true;
    reading?.destroy();
  });
  return { body, sizeBytes };
}

/**
 * Names as they will be unpacked, unique without regard to case (as on Windows and macOS disks):
 * a later duplicate becomes `name (2).ext`, `name (3).ext`…
 */
export function uniqueEntryNames(names: string[]): string[] {
  const taken = new Set<string>();
  return names.map((raw) => {
    const name = sanitizeFileName(raw);
    const dot = name.lastIndexOf('.');
    const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let unique = name;
    for (let copy = 2; taken.has(unique.toLowerCase()); copy += 1)
      unique = `${stem} (${copy})${extension}`;
    taken.add(unique.toLowerCase());
    return unique;
  });
}
