// The one place an uploaded file is parsed: a process of its own, started per render by
// isolated-render.ts with CPU and memory limits and an environment that holds no secret.
// It reads the job from argv, writes the JPEG to the given path and its size to stdout.
import { writeFile } from 'node:fs/promises';
import { blurredPreview } from './image.js';
import { renderFirstPage } from './pdf.js';
import { posterFrame } from './video.js';
import type { IsolatedRenderJob } from './isolated-render.js';

const job = JSON.parse(process.argv[2] ?? '{}') as IsolatedRenderJob;
try {
  const source =
    job.kind === 'image'
      ? job.inputPath
      : job.kind === 'pdf'
        ? await renderFirstPage(job.inputPath)
        : await posterFrame(job.inputPath, job.ffmpegPath!);
  const preview = await blurredPreview(source, job.blurPercentage);
  await writeFile(job.outputPath, preview.image);
  process.stdout.write(JSON.stringify({ width: preview.width, height: preview.height }));
} catch (error) {
  process.stderr.write(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
