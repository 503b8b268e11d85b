/**
 * A generated file of each kind `kis ingest` reads (the rule book's `FILE_KINDS`), a few
 * kilobytes of text each, built with @kis/test-support's builders: what `pnpm bench:cli` times
 * per kind. Typed by the rule book's kinds, so a kind added there fails here until it has one.
 */
import { FILE_KINDS, type FileKind } from '@kis/rules';
import {
  makeDocx,
  makeEpub,
  makePdf,
  makePng,
  makePptx,
  makeXlsx,
  xmlEscape,
} from '@kis/test-support';

/** The kinds read as documents (keys are only uploaded). */
export type DocumentKind = Exclude<FileKind, 'key'>;

const WORDS =
  'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega'.split(
    ' ',
  );

/** A sentence of `n` words that differs with `i`. */
export const sentence = (i: number, n = 40): string =>
  Array.from({ length: n }, (_, k) => WORDS[(i * 7 + k * 3 + k * k) % WORDS.length]).join(' ');

/** `count` paragraphs of about 250 characters. */
const paragraphs = (i: number, count: number): string[] =>
  Array.from({ length: count }, (_, k) => `${sentence(i + k)}.`);

const rows = (i: number, count: number): string[][] =>
  Array.from({ length: count }, (_, r) => [
    String(i * 100 + r),
    `item ${r}`,
    sentence(i + r, 8),
    String((r * 37) % 1000),
  ]);

const delimited = (i: number, separator: string): string =>
  [['id', 'name', 'notes', 'amount'], ...rows(i, 20)].map((row) => row.join(separator)).join('\n');

/** File `i` of each kind. */
export const KIND_FIXTURES: Readonly<Record<DocumentKind, (i: number) => string | Buffer>> = {
  text: (i) => paragraphs(i, 8).join('\n\n'),
  markdown: (i) =>
    `---\ntitle: Page ${i}\ntags: [bench, kinds]\n---\n\n# Page ${i}\n\n` +
    paragraphs(i, 6)
      .map((p, k) => `## Part ${k + 1}\n\n${p}\n\n- ${sentence(i + k, 6)}`)
      .join('\n\n'),
  mdx: (i) => {
    const [a, b, c, d] = paragraphs(i, 4);
    return (
      `---\ntitle: Guide ${i}\n---\nimport { Note, Tab, Tabs } from '@/components'\n\n` +
      `# Guide ${i}\n\n<Note title="Before you start">${a}</Note>\n\n` +
      `<Tabs>\n  <Tab title="npm">${b}</Tab>\n  <Tab title="pnpm">${c}</Tab>\n</Tabs>\n\n` +
      `\`\`\`bash\nnpm i -g kis\n\`\`\`\n\n${d} {props.version}\n\nexport const meta = { page: ${i} }\n`
    );
  },
  html: (i) =>
    `<!doctype html><html><head><title>Site ${i}</title><style>p{margin:0}</style></head><body>` +
    `<nav><a href="/">Home</a></nav><h1>Site ${i}</h1>` +
    paragraphs(i, 6)
      .map((p, k) => `<h2>Part ${k + 1}</h2><p>${p}</p>`)
      .join('') +
    '</body></html>',
  xml: (i) =>
    `<?xml version="1.0"?><feed title="Feed ${i}">` +
    paragraphs(i, 6)
      .map((p, k) => `<entry id="${k}" title="Post ${k}"><body>${xmlEscape(p)}</body></entry>`)
      .join('') +
    '</feed>',
  json: (i) =>
    JSON.stringify({
      id: i,
      title: `Record ${i}`,
      tags: ['bench', 'kinds'],
      parts: paragraphs(i, 6),
    }),
  csv: (i) => delimited(i, ','),
  tsv: (i) => delimited(i, '\t'),
  pdf: (i) => makePdf(sentence(i, 12), `Report ${i}`),
  docx: (i) => makeDocx([`Letter ${i}`, ...paragraphs(i, 8)]),
  pptx: (i) =>
    makePptx(
      Array.from({ length: 5 }, (_, k) => ({
        boxes: [[`Slide ${k + 1}`], [sentence(i + k, 20)]],
        notes: [sentence(i + k + 1, 15)],
      })),
      `Deck ${i}`,
    ),
  xlsx: (i) =>
    makeXlsx([{ name: 'Data', rows: [['id', 'name', 'notes', 'amount'], ...rows(i, 20)] }]),
  eml: (i) =>
    `From: Ada <ada@example.com>\r\nTo: team@example.com\r\nSubject: Update ${i}\r\n` +
    `Date: Tue, 1 Oct 2024 10:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n` +
    paragraphs(i, 6).join('\r\n\r\n'),
  epub: (i) =>
    makeEpub({
      title: `Handbook ${i}`,
      authors: ['Grace Hopper'],
      chapters: Array.from({ length: 3 }, (_, k) => ({
        title: `Chapter ${k + 1}`,
        body: paragraphs(i + k, 3)
          .map((p) => `<p>${xmlEscape(p)}</p>`)
          .join(''),
      })),
    }),
  image: (i) => makePng(`image ${i}`),
};

/** The kinds, in the rule book's order, each with the first extension it has there. */
export function documentKinds(): { kind: DocumentKind; extension: string }[] {
  const seen = new Map<DocumentKind, string>();
  for (const [extension, info] of Object.entries(FILE_KINDS)) {
    if (info.ingest && info.kind !== 'key' && !seen.has(info.kind)) seen.set(info.kind, extension);
  }
  return [...seen].map(([kind, extension]) => ({ kind, extension }));
}
