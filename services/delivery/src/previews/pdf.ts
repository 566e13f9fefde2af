import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { PREVIEW_MAX_SIDE } from './image.js';

const TIMEOUT_MS = 30_000;
const require = createRequire(import.meta.url);
const pdfjsPath = require.resolve('pdfjs-dist/legacy/build/pdf.mjs');

/**
 * Runs in a worker thread: pdf.js parses and paints in JavaScript, which would otherwise hold
 * the event loop for as long as a heavy page takes, and a worker can be killed when a crafted
 * PDF never finishes. Kept as plain JavaScript source so it needs no build step of its own
 * (the service is bundled into one file). It reads the file by path with range requests, so a
 * large PDF is not loaded whole, and paints with pdf.js's own canvas (@napi-rs/canvas).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const pdfjs = await import(workerData.pdfjsUrl);
  const doc = await pdfjs.getDocument({
    url: workerData.path,
    standardFontDataUrl: workerData.standardFontDir,
    isEvalSupported: false,
    // Images inside a crafted PDF are as dangerous as uploaded ones: the same pixel ceiling.
    maxImageSize: 40000000,
    verbosity: 0,
  }).promise;
  try {
    const page = await doc.getPage(1);
    const natural = page.getViewport({ scale: 1 });
    const scale = Math.min(4, workerData.maxSide / Math.max(natural.width, natural.height));
    const viewport = page.getViewport({ scale });
    const { canvas, context } = doc.canvasFactory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    await page.render({ canvas, canvasContext: context, viewport }).promise;
    parentPort.postMessage({ png: await canvas.encode('png') });
  } finally {
    await doc.destroy();
  }
})().catch((error) => parentPort.postMessage({ error: String((error && error.message) || error) }));
`;

/** Page 1 of the PDF as PNG, its longest side about 1200 px. */
export function renderFirstPage(pdfPath: string): Promise<Buffer> {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      pdfjsUrl: pathToFileURL(pdfjsPath).href,
      standardFontDir: new URL('../../standard_fonts/', pathToFileURL(pdfjsPath)).pathname,
      path: pdfPath,
      maxSide: PREVIEW_MAX_SIDE,
    },
    resourceLimits: { maxOldGenerationSizeMb: 512 },
  });
  let timer: NodeJS.Timeout | undefined;
  return new Promise<Buffer>((resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`PDF page 1 not rendered within ${TIMEOUT_MS} ms`)),
      TIMEOUT_MS,
    );
    worker.once('message', (message: { png?: Uint8Array; error?: string }) => {
      if (message.png) resolve(Buffer.from(message.png));
      else reject(new Error(`PDF render failed: ${message.error}`));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`PDF render worker exited (${code})`)));
  }).finally(() => {
    clearTimeout(timer);
    void worker.terminate();
  });
}
