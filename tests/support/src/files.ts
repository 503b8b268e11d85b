/**
 * Small, valid sample files built in the tests (no binary fixtures in the repository): a PDF
 * written by hand with a correct cross-reference table, PNG/JPEG images; the zipped kinds
 * (DOCX, PPTX, XLSX, EPUB) are in zip-fixtures.ts.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';

/** A one-page PDF whose page shows `text` (ASCII) and whose document title is `title`. */
export function makePdf(text: string, title?: string): Buffer {
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const stream = `BT /F1 18 Tf 72 720 Td (${esc(text)}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  if (title !== undefined) objects.push(`<< /Title (${esc(title)}) >>`);
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  const info = title !== undefined ? ` /Info ${objects.length} 0 R` : '';
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${info} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A valid 1x1 PNG image. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * A valid 1x1 PNG whose bytes differ with `comment` (kept in a `tEXt` chunk): distinct images,
 * each uploaded on its own (a run uploads one content once).
 */
export function makePng(comment: string): Buffer {
  const data = Buffer.from(`Comment\0${comment}`, 'latin1');
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write('tEXt', 4, 'latin1');
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  // after the signature (8 bytes) and the IHDR chunk (25 bytes)
  return Buffer.concat([PNG_1X1.subarray(0, 33), chunk, PNG_1X1.subarray(33)]);
}

/** The start of a JPEG/JFIF file (enough for type sniffing). */
export const JPEG_HEAD = Buffer.from(
  'ffd8ffe000104a46494600010100000100010000ffdb004300080606070605080707070909080a0c140d0c0b0b0c1912130f141d1a1f1e1d1a1c1c20242e2720222c231c1c2837292c30313434341f27393d38323c2e333432ffd9',
  'hex',
);

/** Writes files (creating directories) under `root`: `{ 'a/b.txt': 'text' }`. */
export async function writeTree(
  root: string,
  files: Record<string, string | Buffer>,
): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const path = `${root}/${rel}`;
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
  }
}
