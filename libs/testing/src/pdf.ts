import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type * as Pdfjs from 'pdfjs-dist';

/**
 * A valid one-page PDF written by hand: a line of text and a filled rectangle. With
 * `encrypted`, its trailer names the standard security handler, so readers ask for a password.
 */
export function pdfDocument(
  text = 'Secret chapter one',
  { encrypted = false }: { encrypted?: boolean } = {},
): Buffer {
  const content = `BT /F1 24 Tf 40 120 Td (${text}) Tj ET 0 0 1 rg 40 30 200 50 re f`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    // The standard security handler's dictionary: readers ask for a password (pdf-lib refuses).
    ...(encrypted
      ? [
          `<< /Filter /Standard /V 1 /R 2 /O <${'28bf4e5e4e758a41'.repeat(4)}> /U <${'c4f1f1e5a8b2d3c4'.repeat(4)}> /P -3904 >>`,
        ]
      : []),
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(pdf.length);
    pdf += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  const encrypt = encrypted
    ? ` /Encrypt ${objects.length} 0 R /ID [<0123456789abcdef> <0123456789abcdef>]`
    : '';
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${encrypt} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/**
 * Every page's text as a reader extracts it. pdf-lib compresses what it writes, so the bytes
 * cannot be searched.
 */
export async function pdfPageTexts(pdf: Buffer): Promise<string[]> {
  const pdfjs = (await import(
    pathToFileURL(createRequire(import.meta.url).resolve('pdfjs-dist/legacy/build/pdf.mjs')).href
  )) as typeof Pdfjs;
  const document = await pdfjs.getDocument({ data: new Uint8Array(pdf), verbosity: 0 }).promise;
  try {
    const texts: string[] = [];
    for (let number = 1; number <= document.numPages; number += 1) {
      const content = await (await document.getPage(number)).getTextContent();
      texts.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
    }
    return texts;
  } finally {
    await document.destroy();
  }
}
