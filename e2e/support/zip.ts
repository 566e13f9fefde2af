/** One entry of a ZIP's central directory; `stored` holds its bytes when it is not compressed. */
export interface ZipEntry {
  name: string;
  /** 0: stored, 8: deflated. */
  method: number;
  stored: Buffer | null;
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;

/**
 * The entries a ZIP lists, read from its central directory (what unzip tools read). Enough for
 * a download check: no ZIP64, no encryption.
 */
export function zipEntries(zip: Buffer): ZipEntry[] {
  // The end record is 22 bytes plus a comment of up to 65535; search back from the end.
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at -= 1) {
    if (zip.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end === -1) throw new Error('Not a ZIP: no end of central directory record');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let index = 0; index < count; index += 1) {
    if (zip.readUInt32LE(at) !== CENTRAL_FILE_HEADER)
      throw new Error(`Bad central header at ${at}`);
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localOffset = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    entries.push({
      name,
      method,
      stored: method === 0 ? localData(zip, localOffset, compressedSize) : null,
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function localData(zip: Buffer, offset: number, size: number): Buffer {
  if (zip.readUInt32LE(offset) !== LOCAL_FILE_HEADER)
    throw new Error(`Bad local header at ${offset}`);
  const start = offset + 30 + zip.readUInt16LE(offset + 26) + zip.readUInt16LE(offset + 28);
  return zip.subarray(start, start + size);
}
