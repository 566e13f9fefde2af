import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { signDownloadToken, readDownloadToken } from '../src/domain/download-token.js';
import { archiveFileName } from '../src/domain/file-name.js';
import { archiveSize, streamArchive, uniqueEntryNames } from '../src/domain/zip-archive.js';

/** Entries over in-memory bytes, recording which streams were opened and destroyed. */
function entriesOf(contents: Buffer[], names = contents.map((_, index) => `file ${index}.bin`)) {
  const opened: Readable[] = [];
  /** Streams opened and not yet read to their end (or destroyed). */
  let open = 0;
  let mostOpenAtOnce = 0;
  const entries = contents.map((content, index) => ({
    name: names[index]!,
    sizeBytes: content.length,
    async open() {
      // Slow chunks, so an archive can be stopped while an entry is being read.
      const stream = Readable.from(
        (async function* () {
          for (let at = 0; at < content.length; at += 64 * 1024) {
            await new Promise((resolve) => setImmediate(resolve));
            yield content.subarray(at, at + 64 * 1024);
          }
        })(),
      );
      open += 1;
      mostOpenAtOnce = Math.max(mostOpenAtOnce, open);
      let done = false;
      const finished = () => {
        if (!done) open -= 1;
        done = true;
      };
      stream.once('end', finished).once('close', finished);
      opened.push(stream);
      return stream;
    },
  }));
  return { entries, opened, mostOpenAtOnce: () => mostOpenAtOnce };
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('streamArchive', () => {
  it('is exactly the size archiveSize announces, reading one entry at a time', async () => {
    const contents = [randomBytes(300_000), Buffer.alloc(0), randomBytes(10)];
    const names = ['Été — mix.wav', 'empty.txt', 'notes.txt'];
    const { entries, opened, mostOpenAtOnce } = entriesOf(contents, names);
    const { body, sizeBytes } = streamArchive(entries);
    const archive = await readAll(body);
    expect(archive.length).toBe(sizeBytes);
    expect(archiveSize(entries)).toBe(sizeBytes);
    expect(opened).toHaveLength(3);
    expect(mostOpenAtOnce()).toBe(1);
    // Stored: every entry's bytes appear as they are.
    for (const content of contents) expect(archive.includes(content)).toBe(true);
  });

  it('a client going away destroys the entry being read and opens no other', async () => {
    const { entries, opened } = entriesOf([randomBytes(2_000_000), randomBytes(1000)]);
    const { body } = streamArchive(entries);
    await new Promise<void>((resolve) =>
      body.once('data', () => {
        body.destroy();
        resolve();
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(opened).toHaveLength(1);
    expect(opened[0]!.destroyed).toBe(true);
  });

  it('a storage failure ends the archive with that error', async () => {
    const failing = {
      name: 'gone.bin',
      sizeBytes: 10,
      open: () => Promise.reject(new Error('storage unavailable')),
    };
    const { body } = streamArchive([failing]);
    await expect(readAll(body)).rejects.toThrow('storage unavailable');
  });
});

describe('uniqueEntryNames', () => {
  it('numbers later duplicates before the extension, regardless of case', () => {
    expect(
      uniqueEntryNames([
        'Track.wav',
        'track.WAV',
        'Track.wav',
        'Track (2).wav',
        'README',
        'README',
      ]),
    ).toEqual([
      'Track.wav',
      'track (2).WAV',
      'Track (3).wav',
      'Track (2) (2).wav',
      'README',
      'README (2)',
    ]);
  });
});

describe('archiveFileName', () => {
  it.each([
    ['Sunset pack', 'Sunset pack.zip'],
    ['AC/DC: live', 'AC-DC_ live.zip'],
    ['..', 'file.zip'],
    [null, 'Files.zip'],
  ])('%j → %j', (title, expected) => {
    expect(archiveFileName(title)).toBe(expected);
  });
});

describe('ZIP tokens', () => {
  it('are signed for every file of the purchase, so no file token passes for one, nor the reverse', () => {
    const key = 'k'.repeat(32);
    const purchaseId = crypto.randomUUID();
    const fileId = crypto.randomUUID();
    const expiresAt = new Date(1_900_000_000_000);
    const zip = readDownloadToken(
      signDownloadToken(key, { grantId: crypto.randomUUID(), purchaseId, fileId: null, expiresAt }),
    )!;
    const file = readDownloadToken(
      signDownloadToken(key, { grantId: crypto.randomUUID(), purchaseId, fileId, expiresAt }),
    )!;
    expect(zip.signedFor(key, purchaseId, null)).toBe(true);
    expect(zip.signedFor(key, purchaseId, fileId)).toBe(false);
    expect(file.signedFor(key, purchaseId, null)).toBe(false);
    expect(file.signedFor(key, purchaseId, fileId)).toBe(true);
  });
});
