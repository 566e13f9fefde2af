// The one place an uploaded file is parsed: a process of its own, started per render by
// isolated-render.ts with CPU and memory limits and an environment that holds no secret.
// It reads the job from argv and writes the JPEG (or the stamped PDF) to the given path, the
// preview's size to stdout.
import { writeFile } from 'node:fs/promises';
import { blurredPreview } from './image.js';
import { renderFirstPage } from './pdf.js';
import { stampPdf } from './stamp-pdf.js';
import { UNSTAMPABLE_EXIT_CODE, UnstampablePdfError } from './unstampable.js';
import { posterFrame } from './video.js';
import type { IsolatedJob } from './isolated-render.js';

const job = JSON.parse(process.argv[2] ?? '{}') as IsolatedJob;
try {
  if (job.kind === 'stamp') {
    await stampPdf(job.inputPath, job.outputPath, job.text);
    process.stdout.write('{}');
    process.exit(0);
  }
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
  if (error instanceof UnstampablePdfError) {
    process.stderr.write(error.reason);
    process.exitCode = UNSTAMPABLE_EXIT_CODE;
  } else {
    process.stderr.write(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  }
}
