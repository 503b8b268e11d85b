/**
 * An MDX page's tree (mdast, with its JSX, ESM and expression nodes) as plain text: Markdown
 * marks gone, component text and reader-facing attributes kept, code as written.
 */
import type { Nodes, Parents } from 'mdast';
import type { MdxJsxAttribute, MdxJsxExpressionAttribute } from 'mdast-util-mdx';
import { isTextAttribute } from '../text-attributes.js';

/** Block nodes as text, separated by blank lines. */
export function blocks(nodes: readonly Nodes[]): string {
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
