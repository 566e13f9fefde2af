import { spawn, spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PreviewImage } from './image.js';
import {
  StampInterruptedError,
  UNSTAMPABLE_EXIT_CODE,
  UnstampablePdfError,
  type UnstampableReason,
} from './unstampable.js';

export interface IsolatedRenderJob {
  kind: 'image' | 'pdf' | 'video';
  inputPath: string;
  outputPath: string;
  blurPercentage: number;
  ffmpegPath: string | null;
}

/** A buyer's copy of a PDF with `text` in every page's footer (stamp-pdf.ts). */
export interface IsolatedStampJob {
  kind: 'stamp';
  inputPath: string;
  outputPath: string;
  text: string;
}

/** What the isolated process is asked to do with an untrusted file. */
export type IsolatedJob = IsolatedRenderJob | IsolatedStampJob;

export interface RenderLimits {
  /**
   * Memory the render process may allocate (RLIMIT_DATA: heap and private mappings, libvips,
   * pdf.js and ffmpeg included). Not RLIMIT_AS: V8 and libvips reserve far more address space
   * than they use, and an address-space cap stops them loading at all.
   */
  memoryMb: number;
  cpuSeconds: number;
  /** Wall clock, for a render that sleeps or waits instead of computing. */
  timeoutMs: number;
  /** PATH for the render process: the only variable it gets. */
  searchPath: string;
}

/** A render that failed because of the file: retrying it would fail (or crash) the same way. */
export class UnrenderableFileError extends Error {
  override name = 'UnrenderableFileError';
}

const hasPrlimit = spawnSync('prlimit', ['--version'], { stdio: 'ignore' }).status === 0;

/**
 * The render process's script: the bundled child next to dist/main.js, or — running from
 * TypeScript (tests) — the same child bundled on first use into node_modules/.cache. Not the
 * source under tsx: tsx's loader runs in a worker thread, and Node 24 cannot create a worker's
 * isolate under the render's RLIMIT_DATA (every render died with SIGTRAP), so the tests would
 * not run what production runs.
 */
let bundledChild: Promise<string> | undefined;
async function childScript(): Promise<string> {
  const built = fileURLToPath(new URL('./render-child.js', import.meta.url));
  if (existsSync(built)) return built;
  bundledChild ??= bundleChild(fileURLToPath(new URL('./render-child.ts', import.meta.url)));
  return bundledChild;
}

async function bundleChild(source: string): Promise<string> {
  const { build } = await import('esbuild');
  // Inside the repository's node_modules, so the child resolves its packages from there.
  const outfile = fileURLToPath(
    new URL(
      `../../../../node_modules/.cache/lockdrop/render-child-${process.pid}.mjs`,
      import.meta.url,
    ),
  );
  await build({
    entryPoints: [source],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    plugins: [
      {
        name: 'external-packages',
        setup(context) {
          context.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@lockdrop/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  process.once('exit', () => rmSync(outfile, { force: true }));
  return outfile;
}

/** How the render process is started: exported so a test can see what it is given. */
export async function renderCommand(
  job: IsolatedJob,
  limits: RenderLimits,
): Promise<{ command: string; args: string[]; env: Record<string, string> }> {
  const node = [process.execPath, await childScript(), JSON.stringify(job)];
  return {
    ...(hasPrlimit
      ? {
          command: 'prlimit',
          args: [
            `--data=${limits.memoryMb * 1024 * 1024}`,
            `--cpu=${limits.cpuSeconds}`,
            '--',
            ...node,
          ],
        }
      : { command: node[0]!, args: node.slice(1) }),
    // Only the search path crosses: no signing key, no database URL, no credentials.
    env: { PATH: limits.searchPath },
  };
}

/**
 * Renders the preview of an untrusted file in a process of its own (see render-child.ts): if a
 * crafted file crashes or exhausts a parser, that process dies alone, within its limits, and the
 * failure is the file's. The service process never parses the upload itself.
 */
export async function renderIsolated(
  job: Omit<IsolatedRenderJob, 'outputPath'>,
  limits: RenderLimits,
): Promise<PreviewImage> {
  const dir = await mkdtemp(path.join(tmpdir(), 'lockdrop-render-'));
  try {
    const outputPath = path.join(dir, 'preview.jpg');
    const { command, args, env } = await renderCommand({ ...job, outputPath }, limits);
    const { code, signal, stdout, stderr } = await run(command, args, env, limits.timeoutMs);
    if (code !== 0)
      throw new UnrenderableFileError(
        `render process ${signal ? `killed (${signal})` : `exited ${code}`}: ${stderr.slice(-500)}`,
      );
    const { width, height } = JSON.parse(stdout) as { width: number; height: number };
    return { image: await readFile(outputPath), contentType: 'image/jpeg', width, height };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Writes the stamped copy of the PDF at `inputPath` to `outputPath`, in the same isolated
 * process as a preview render. Only the child's own verdict on the file (encrypted, malformed:
 * exit code 3) is an `UnstampablePdfError`, final; a process that was killed or failed otherwise
 * is a `StampInterruptedError`, to be tried again.
 */
export async function stampIsolated(
  job: Omit<IsolatedStampJob, 'kind'>,
  limits: RenderLimits,
): Promise<void> {
  const { command, args, env } = await renderCommand({ ...job, kind: 'stamp' }, limits);
  const { code, signal, stderr } = await run(command, args, env, limits.timeoutMs);
  if (code === 0) return;
  if (code === UNSTAMPABLE_EXIT_CODE)
    throw new UnstampablePdfError(stderr.trim() as UnstampableReason);
  throw new StampInterruptedError(
    `stamp process ${signal ? `killed (${signal})` : `exited ${code}`}: ${stderr.slice(-500)}`,
  );
}

function run(command: string, args: string[], env: Record<string, string>, timeoutMs: number) {
  return new Promise<{
    code: number | null;
    signal: string | null;
    stdout: string;
    stderr: string;
  }>((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
