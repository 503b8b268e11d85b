import { gunzipSync } from 'node:zlib';

/** The regular files of a `.tgz` npm package: name (with the `package/` prefix) to content. */
export function readTarball(gzipped: Uint8Array): Map<string, Buffer> {
  const tar = gunzipSync(gzipped);
  const files = new Map<string, Buffer>();
  let offset = 0;
  let longName: string | undefined;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const field = (start: number, length: number) =>
      header
        .subarray(start, start + length)
        .toString('utf8')
        .replace(/\0[\s\S]*$/, '');
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1) || '0';
    const prefix = field(345, 155);
    const name = longName ?? (prefix ? `${prefix}/${field(0, 100)}` : field(0, 100));
    const body = tar.subarray(offset + 512, offset + 512 + size);
    longName = undefined;
    if (type === 'L') longName = body.toString('utf8').replace(/\0[\s\S]*$/, '');
    else if (type === '0' || type === '7') files.set(name, Buffer.from(body));
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  if (files.size === 0) throw new Error('the tarball holds no files');
  return files;
}
