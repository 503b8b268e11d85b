/** The text's UTF-8 bytes cut every `size` bytes (a break or a character may fall between two). */
export function byteChunks(text: string, size: number): Buffer[] {
  const bytes = Buffer.from(text, 'utf8');
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
  return out;
}
