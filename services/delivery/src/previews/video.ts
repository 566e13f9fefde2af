import { spawn, spawnSync } from 'node:child_process';
import { PREVIEW_MAX_SIDE } from './image.js';

const TIMEOUT_MS = 30_000;
const MAX_FRAME_BYTES = 32 * 1024 * 1024;
/** A second in skips the black or title frame most videos open with; short clips fall back to the first frame. */
const FRAME_AT_SECONDS = [1, 0];

/** `configured` when it runs here (`ffmpeg -version`), else null. */
export function findFfmpeg(configured: string): string | null {
  return spawnSync(configured, ['-version'], { stdio: 'ignore' }).status === 0 ? configured : null;
}

/** One frame of the video as PNG, at most 1200 px, from the system's ffmpeg (Debian's package). */
export async function posterFrame(videoPath: string, ffmpegPath: string): Promise<Buffer> {
  for (const seconds of FRAME_AT_SECONDS) {
    const frame = await grabFrame(ffmpegPath, videoPath, seconds);
    if (frame.length > 0) return frame;
  }
  throw new Error('ffmpeg found no video frame');
}

function grabFrame(ffmpegPath: string, videoPath: string, seconds: number): Promise<Buffer> {
  const scale = `scale='min(${PREVIEW_MAX_SIDE},iw)':'min(${PREVIEW_MAX_SIDE},ih)':force_original_aspect_ratio=decrease`;
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    // Uploaded bytes are untrusted: a crafted file must not make ffmpeg open URLs or other files.
    '-protocol_whitelist',
    'file,pipe',
    '-ss',
    String(seconds),
    '-i',
    videoPath,
    '-frames:v',
    '1',
    '-vf',
    scale,
    '-f',
    'image2pipe',
    '-c:v',
    'png',
    'pipe:1',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let bytes = 0;
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_FRAME_BYTES) child.kill('SIGKILL');
      else chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(chunks));
      else reject(new Error(`ffmpeg ${signal ?? `exit ${code}`}: ${stderr.trim()}`));
    });
  });
}
