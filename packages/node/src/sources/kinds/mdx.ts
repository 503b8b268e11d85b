/**
 * MDX (.mdx, as Mintlify, Docusaurus and Nextra sites are written): parsed as MDX, then read as
 * text. `import`/`export` statements and `{expressions}` are dropped; the text inside components
 * (`<Note>…</Note>`) and their reader-facing string attributes (`<Tab title="…">`) are kept, and
 * so are code blocks. Front matter is read as in Markdown. A file that does not parse as MDX is
 * read as Markdown text, with a warning: never as nothing.
 */
import type { Nodes, Parents } from 'mdast';
import type { MdxJsxAttribute, MdxJsxExpressionAttribute } from 'mdast-util-mdx';
import type { Extraction, FileBytes } from '../extraction.js';
import { tidyText } from '../extraction.js';
import { readFrontMatter, withFrontMatter } from '../front-matter.js';
import { oneLine } from '../fs-reason.js';
import { optionalImport } from '../optional-import.js';
import { isTextAttribute } from '../text-attributes.js';
import { decodeText } from '../text-decode.js';

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
    return (text: string) => fromMarkdown(text, options);
  },
);

export async function extractMdx(file: FileBytes): Promise<Extraction> {
  const front = await readFrontMatter(decodeText(file.bytes), file.name);
  const parse = await mdxLib(file.name);
  let text: string;
  const warnings: string[] = [];
  try {
    text = tidyText(blocks(parse(front.body).children));
  } catch (error) {
    text = tidyText(front.body);
    warnings.push(`not valid MDX (${parseFailure(error, front.lines)}); read as Markdown text`);
  }
  return withFrontMatter({ sections: [{ text }], warnings }, front);
}

/** `line 4, column 11: Unexpected end of file in expression…`, in the file's own lines. */
function parseFailure(error: unknown, frontMatterLines: number): string {
  const { line, column } = (error ?? {}) as { line?: unknown; column?: unknown };
  const reason = oneLine((error as { reason?: unknown })?.reason ?? error);
  return typeof line === 'number' && typeof column === 'number'
    ? `line ${line + frontMatterLines}, column ${column}: ${reason}`
    : reason;
}

/** Block nodes as text, separated by blank lines. */
function blocks(nodes: readonly Nodes[]): string {
  return nodes
    .map(block)
    .filter((text) => text.trim() !== '')
    .join('\n\n');
}

function block(node: Nodes): string {
  switch (node.type) {
    case 'paragraph': {
      // a component alone on its line (`<Tab title="…">text</Tab>`) reads as one on its own lines
      const [only, ...rest] = node.children.filter(
        (child) => child.type !== 'text' || child.value.trim() !== '',
      );
      if (only?.type === 'mdxJsxTextElement' && rest.length === 0 && only.name !== 'br') {
        return [attributeText(only.attributes), inline(only.children)].filter(Boolean).join('\n\n');
      }
      return inline(node.children);
    }
    case 'heading':
    case 'tableCell':
      return inline(node.children);
    case 'code':
      return node.value;
    case 'html':
      return node.value;
    case 'list':
      return node.children
        .map((item, i) => {
          const marker = node.ordered ? `${(node.start ?? 1) + i}.` : '-';
          return `${marker} ${block(item).replace(/\n/g, '\n  ')}`;
        })
        .join('\n');
    case 'listItem':
      return node.children.map(block).join('\n');
    case 'blockquote':
    case 'footnoteDefinition':
    case 'root':
      return blocks(node.children);
    case 'table':
      return node.children.map(block).join('\n');
    case 'tableRow':
      return node.children.map(block).join(' | ');
    case 'mdxJsxFlowElement':
      return [attributeText(node.attributes), blocks(node.children)].filter(Boolean).join('\n\n');
    // dropped: import/export, {expressions}, front matter, link definitions, rules
    case 'mdxjsEsm':
    case 'mdxFlowExpression':
    case 'yaml':
    case 'definition':
    case 'thematicBreak':
      return '';
    default:
      return 'children' in node ? inline(node.children) : inlineNode(node);
  }
}

/** Inline nodes as one run of text. */
function inline(nodes: readonly Nodes[]): string {
  return nodes.map(inlineNode).join('');
}

function inlineNode(node: Nodes): string {
  switch (node.type) {
    case 'text':
    case 'inlineCode':
    case 'html':
      return node.value;
    case 'break':
      return '\n';
    case 'image':
    case 'imageReference':
      return node.alt ?? '';
    case 'mdxJsxTextElement': {
      if (node.name === 'br') return '\n';
      const attributes = attributeText(node.attributes);
      const content = inline(node.children);
      return attributes && content ? `${attributes} ${content}` : attributes || content;
    }
    case 'mdxTextExpression':
    case 'footnoteReference':
      return '';
    default:
      return isParent(node) ? inline(node.children) : '';
  }
}

function isParent(node: Nodes): node is Parents {
  return 'children' in node && Array.isArray(node.children);
}

/** The values of a component's reader-facing string attributes (`title="…"`), in order. */
function attributeText(attributes: readonly (MdxJsxAttribute | MdxJsxExpressionAttribute)[]) {
  return attributes
    .map((attr) =>
      attr.type === 'mdxJsxAttribute' &&
      typeof attr.value === 'string' &&
      isTextAttribute(attr.name)
        ? attr.value.trim()
        : '',
    )
    .filter((value) => value !== '')
    .join('\n');
}
