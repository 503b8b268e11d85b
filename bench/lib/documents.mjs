// Generated documents the benchmarks send: small and alike, so each run measures the tools, not
// the data.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes `dir/TAG-N.jsonl`: `n` documents with ids `TAG-0`…, about 260 bytes each; its path. */
export function writeDocuments(dir, n, tag) {
  const file = join(dir, `${tag}-${n}.jsonl`);
  const lines = Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      id: `${tag}-${i}`,
      semantic_identifier: `Benchmark document ${i}`,
      sections: [{ text: `Body of generated document ${i}. `.repeat(4) }],
      source: 'file',
      metadata: { n: String(i) },
    }),
  );
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}
