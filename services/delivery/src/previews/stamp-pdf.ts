import { readFile, writeFile } from 'node:fs/promises';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { UnstampablePdfError } from './unstampable.js';

/** Helvetica (a PDF standard font, nothing embedded) writes WinAnsi: other characters become "?". */
function winAnsi(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?');
}

/** V8's words when a buffer cannot be had under the process's memory limit. */
const OUT_OF_MEMORY = /allocation failed|out of memory/i;

const FONT_SIZE = 7;
const MARGIN = 14;

/**
 * Writes `text` ("Licensed to buyer@example.com") in the footer of every page of the PDF at
 * `inputPath`, small and readable, and saves the result at `outputPath`. Runs in the isolated
 * render process: the PDF is untrusted input.
 */
export async function stampPdf(inputPath: string, outputPath: string, text: string): Promise<void> {
  let stamped: Uint8Array;
  try {
    stamped = await stamp(await readFile(inputPath), text);
  } catch (error) {
    // Running out of memory says nothing final about the file (StampInterruptedError upstream).
    if (error instanceof RangeError && OUT_OF_MEMORY.test(error.message)) throw error;
    // Whatever else pdf-lib trips over (no catalog, a broken page tree) is the file's fault.
    throw error instanceof UnstampablePdfError ? error : new UnstampablePdfError('malformed');
  }
  await writeFile(outputPath, stamped);
}

async function stamp(pdf: Buffer, text: string): Promise<Uint8Array> {
  // pdf-lib's own EncryptedPDFError does not survive `instanceof` (ES5 classes), so the
  // document is loaded regardless and asked.
  const document = await PDFDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true });
  if (document.isEncrypted) throw new UnstampablePdfError('encrypted');
  const pages = document.getPages();
  if (pages.length === 0) throw new UnstampablePdfError('malformed');
  const font = await document.embedFont(StandardFonts.Helvetica);
  const line = winAnsi(text);
  const width = font.widthOfTextAtSize(line, FONT_SIZE);
  for (const page of pages) {
    const { x, y, width: pageWidth } = page.getCropBox();
    page.drawText(line, {
      x: x + Math.max(MARGIN, (pageWidth - width) / 2),
      y: y + MARGIN / 2 + 2,
      size: FONT_SIZE,
      font,
      color: rgb(0.35, 0.35, 0.4),
    });
  }
  return document.save();
}
