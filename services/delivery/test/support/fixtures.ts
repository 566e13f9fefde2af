import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';

/** A 400×300 PNG with sharp edges (a checkerboard), so any blur changes its pixels. */
export async function pngImage(): Promise<Buffer> {
  const size = 50;
  const squares = [];
  for (let y = 0; y < 300; y += size)
    for (let x = 0; x < 400; x += size)
      if (((x + y) / size) % 2 === 0)
        squares.push(`<rect x="${x}" y="${y}" width="${size}" height="${size}" fill="#e11d48"/>`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#fff"/>${squares.join('')}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export { pdfDocument } from '@lockdrop/testing';

/** A one-second MP4 of ffmpeg's test pattern (Debian's ffmpeg, which .ci/run installs). */
export async function mp4Video(): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'lockdrop-video-'));
  try {
    const file = path.join(dir, 'clip.mp4');
    await promisify(execFile)('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=duration=1:size=320x240:rate=10',
      '-pix_fmt',
      'yuv420p',
      '-y',
      file,
    ]);
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A quarter second of a 440 Hz tone as 8 kHz 16-bit mono WAV. */
export function wavAudio(): Buffer {
  const samples = 2000;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i += 1)
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / 8000) * 12000), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** The start of a ZIP archive: one stored entry, enough for its type to be sniffed. */
export function zipArchive(): Buffer {
  const name = Buffer.from('readme.txt');
  const body = Buffer.from('hello');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(10, 4);
  local.writeUInt32LE(body.length, 18);
  local.writeUInt32LE(body.length, 22);
  local.writeUInt16LE(name.length, 26);
  return Buffer.concat([local, name, body]);
}

/** The first bytes of a 64-bit Linux executable (ELF header), padded. */
export function elfExecutable(): Buffer {
  const elf = Buffer.alloc(256);
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]).copy(elf);
  elf.writeUInt16LE(2, 16); // ET_EXEC
  elf.writeUInt16LE(0x3e, 18); // x86-64
  return elf;
}

/** The first bytes of a Windows executable (MZ … PE header), padded. */
export function peExecutable(): Buffer {
  const exe = Buffer.alloc(512);
  exe.write('MZ', 0);
  exe.writeUInt32LE(0x80, 0x3c);
  exe.write('PE\0\0', 0x80, 'latin1');
  return exe;
}
