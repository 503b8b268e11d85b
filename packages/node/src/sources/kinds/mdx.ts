/**
 * MDX (.mdx, as Mintlify, Docusaurus and Nextra sites are written): parsed as MDX, then read as
 * text. `import`/`export` statements and `{expressions}` are dropped; the text inside components
 * (`<Note>…</Note>`) and their reader-facing string attributes (`<Tab title="…">`) are kept, and
 * so are code blocks. Front matter is read as in Markdown. A file that does not parse as MDX is
 * read leniently, as Mintlify renders it (`mdx-lenient.ts`), with a warning: never as nothing.
 */
import type { Extraction, FileBytes } from '../extraction.js';
import { tidyText } from '../extraction.js';
import { readFrontMatter, withFrontMatter } from '../front-matter.js';
import { oneLine } from '../fs-reason.js';
import { optionalImport } from '../optional-import.js';
import { decodeText } from '../text-decode.js';
import { lenientText } from './mdx-lenient.js';
import { blocks } from './mdx-text.js';

// The MDX parser of @mdx-js/mdx without its compiler: micromark's MDX syntax and the mdast
// tree of the unified collective, pure JS (remark-mdx wraps the same two); 17-93 M a month.
const mdxLib = optionalImport(
  ['mdast-util-from-markdown@2.1.0', 'micromark-extension-mdxjs@3.0.0', 'mdast-util-mdx@3.0.0'],
  async () => {
    const [{ fromMarkdown }, { mdxjs }, { mdxFromMarkdown }] = await Promise.all([
      import('mdast-util-from-markdown'),
      import('micromark-extension-mdxjs'),
      import('mdast-util-mdx'),
    ]);
    // made once: building the syntax (an acorn parser with JSX) costs more than a small page
    const options = { extensions: [mdxjs()], mdastExtensions: [mdxFromMarkdown()] };
    // MDX's Markdown without JSX, for the lenient reading (micromark-extension-mdx-md's switches)
    const markdown = {
      extensions: [{ disable: { null: ['autolink', 'codeIndented', 'htmlFlow', 'htmlText'] } }],
    };
    return {
      mdx: (text: string) => fromMarkdown(text, options),
      markdown: (text: string) => fromMarkdown(text, markdown),
    };
  },
);

export async function extractMdx(file: FileBytes): Promise<Extraction> {
  const front = await readFrontMatter(decodeText(file.bytes), file.name);
  const parse = await mdxLib(file.name);
  let text: string;
  const warnings: string[] = [];
  try {
    text = tidyText(blocks(parse.mdx(front.body).children));
  } catch (error) {
    text = lenientText(front.body, parse.markdown);
    warnings.push(
      `not valid MDX (${parseFailure(error, front.lines)}); read leniently, without its tags, statements and expressions`,
    );
  }
  return withFrontMatter({ sections: [{ text }], warnings }, front);
}

/** `line 4, column 11: Unexpected end of file in expression…`, in the file's own lines. */
function parseFailure(error: unknown, frontMatterLines: number): string {
  const { line, column } = (error ?? {}) as { line?: unknown; column?: unknown };
  // a reason places tags in the body's lines, `… for \`<img>\` (5:5-5:49)`: moved to the file's
  const reason = oneLine((error as { reason?: unknown })?.reason ?? error).replace(
    /\((\d+):(\d+)-(\d+):(\d+)\)/g,
    (_, from, fromColumn, to, toColumn) =>
      `(${Number(from) + frontMatterLines}:${fromColumn}-${Number(to) + frontMatterLines}:${toColumn})`,
  );
  if (typeof line === 'number' && typeof column === 'number') {
    return `line ${line + frontMatterLines}, column ${column}: ${reason}`;
  }
  // a tag never closed before the end of the page is placed only there, as the last words
  const place = / \((\d+):(\d+)-\d+:\d+\)$/.exec(reason);
  return place ? `line ${place[1]}, column ${place[2]}: ${reason.slice(0, place.index)}` : reason;
}
