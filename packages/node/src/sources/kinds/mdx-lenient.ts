/**
 * The lenient reading of an MDX page that strict MDX refuses (an `<img …>` never closed, an HTML
 * comment, a stray `{`), as Mintlify still renders it: statements, tags, comments and
 * `{expressions}` dropped, reader-facing attributes and code kept. The page is parsed as MDX's
 * Markdown (no JSX, no HTML) to find its code and statements, those parts of MDX are cut from the
 * text around them, and what is left is parsed again and read as the strict reading reads it.
 */
import type { Nodes, Root } from 'mdast';
import { tidyText } from '../extraction.js';
import { bracketEnd, isStatement, readTag, statementEnd, type Tag } from './mdx-syntax.js';
import { blocks } from './mdx-text.js';

/** Parses text as MDX's Markdown: CommonMark less indented code, autolinks and HTML. */
export type ParseMarkdown = (text: string) => Root;

/** A span of the page taken out: a tag, an expression or a statement (no tag). */
interface Cut {
  start: number;
  end: number;
  tag?: Tag;
  /** Where the tag's partner (an open tag's close, a close tag's open) is among the cuts. */
  partner?: number;
}

/** An MDX page's body (front matter off) as text, read leniently. */
export function lenientText(body: string, parse: ParseMarkdown): string {
  return tidyText(blocks(parse(plainMarkdown(body, parse(body))).children));
}

/** The page as Markdown alone: every statement, tag, comment and expression cut out. */
function plainMarkdown(body: string, tree: Root): string {
  const fences: [number, number][] = [];
  const inlineCode = new Map<number, number>();
  collectCode(tree, fences, inlineCode);
  const cuts: Cut[] = [];
  let from = 0;
  for (const [start, end] of [...fences, [body.length, body.length] as [number, number]]) {
    // tags and expressions never reach across a code block
    scanSegment(body, from, start, inlineCode, cuts);
    from = end;
  }
  for (const node of tree.children) {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (node.type !== 'paragraph' || start === undefined || end === undefined) continue;
    if (node.position?.start.column !== 1 || !isStatement(body.slice(start, end))) continue;
    const limit = fences.find(([fence]) => fence > start)?.[0] ?? body.length;
    cuts.push({ start, end: statementEnd(body, start, end, limit) });
  }
  return applyCuts(body, withoutOverlaps(cuts));
}

/** Where fenced code blocks are, and inline code spans (by start, their ends). */
function collectCode(node: Nodes, fences: [number, number][], inline: Map<number, number>) {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start !== undefined && end !== undefined) {
    if (node.type === 'code') fences.push([start, end]);
    if (node.type === 'inlineCode') inline.set(start, end);
  }
  if ('children' in node) for (const child of node.children) collectCode(child, fences, inline);
}

/** The tags and expressions in `body` from `from` to `to`, code spans and escapes left alone. */
function scanSegment(
  body: string,
  from: number,
  to: number,
  inlineCode: ReadonlyMap<number, number>,
  cuts: Cut[],
): void {
  let i = from;
  while (i < to) {
    const ch = body[i];
    const code = inlineCode.get(i);
    if (code !== undefined) {
      i = code;
    } else if (ch === '\\') {
      i += 2; // `\<` and `\{` are the page's own way of writing them as text
    } else if (ch === '<') {
      const tag = readTag(body, i, to);
      if (tag) cuts.push({ start: i, end: tag.end, tag });
      i = tag ? tag.end : i + 1;
    } else if (ch === '{') {
      const end = bracketEnd(body, i, expressionLimit(body, i, to));
      if (end !== undefined) cuts.push({ start: i, end });
      i = end ?? i + 1;
    } else {
      i++;
    }
  }
}

const BLANK_LINE = /\n[ \t\r]*\n/g;

/**
 * How far an expression at `body[at]` may reach: one inside a line ends in its paragraph, so a
 * stray `{` in prose cannot swallow the pages after it; one that starts a line may span blank
 * lines (a commented-out passage).
 */
function expressionLimit(body: string, at: number, to: number): number {
  const lineStart = body.lastIndexOf('\n', at - 1) + 1;
  if (/^[ \t]*$/.test(body.slice(lineStart, at))) return to;
  BLANK_LINE.lastIndex = at;
  const blank = BLANK_LINE.exec(body);
  return blank ? Math.min(blank.index, to) : to;
}

/** Cuts in order, a statement swallowing the tags and expressions inside it. */
function withoutOverlaps(cuts: Cut[]): Cut[] {
  cuts.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Cut[] = [];
  for (const cut of cuts) {
    const last = kept[kept.length - 1];
    if (last && cut.start < last.end) continue;
    kept.push(cut);
  }
  return kept;
}

/** `body` with each cut replaced by what a reader sees of it. */
function applyCuts(body: string, cuts: Cut[]): string {
  pairTags(cuts);
  let text = '';
  let from = 0;
  cuts.forEach((cut, index) => {
    text += body.slice(from, cut.start) + replacement(body, cuts, index);
    from = cut.end;
  });
  return text + body.slice(from);
}

/** Links each close tag to the open tag it closes; tags never closed stay alone. */
function pairTags(cuts: readonly Cut[]): void {
  const open: number[] = [];
  cuts.forEach((cut, index) => {
    if (cut.tag?.kind === 'open') open.push(index);
    if (cut.tag?.kind !== 'close') return;
    const name = cut.tag.name;
    const at = open.findLastIndex((candidate) => cuts[candidate]?.tag?.name === name);
    if (at === -1) return;
    const partner = open[at] as number;
    open.length = at;
    (cuts[partner] as Cut).partner = index;
    cut.partner = partner;
  });
}

/**
 * What stands for a cut. A tag on its own lines (`<Note>` … `</Note>`, or `<Tab title="…">…</Tab>`
 * filling its line) stands apart like a block, its text attributes a paragraph; a tag inside a
 * line gives its text attributes inline, `<br>` a line break; expressions and statements nothing.
 */
function replacement(body: string, cuts: readonly Cut[], index: number): string {
  const cut = cuts[index] as Cut;
  const tag = cut.tag;
  if (tag === undefined) return '';
  const words = tag.text.map(escapeMarkdown);
  if (isBlock(body, cuts, index)) {
    const indent = /^[ \t]*/.exec(body.slice(body.lastIndexOf('\n', cut.start - 1) + 1))?.[0];
    const paragraph = words.map((line) => `${indent}${line}\n`).join('');
    return paragraph ? `\n\n${paragraph}\n${indent}` : `\n\n${indent}`;
  }
  if (tag.kind === 'void' && tag.name === 'br') return '\n';
  const inline = words.join('\n');
  return tag.kind === 'open' && inline ? `${inline} ` : inline;
}

function isBlock(body: string, cuts: readonly Cut[], index: number): boolean {
  const cut = cuts[index] as Cut;
  const starts = startsLine(body, cuts, index);
  const ends = endsLine(body, cuts, index);
  const partner = cut.partner;
  switch (cut.tag?.kind) {
    case 'open':
      return starts && (ends || (partner !== undefined && endsLine(body, cuts, partner)));
    case 'close':
      return ends && (starts || (partner !== undefined && startsLine(body, cuts, partner)));
    default:
      return starts && ends;
  }
}

/** Whether only blanks and other cuts stand before the cut on its line. */
function startsLine(body: string, cuts: readonly Cut[], index: number): boolean {
  let at = (cuts[index] as Cut).start;
  for (let previous = index - 1; ; previous--) {
    while (at > 0 && (body[at - 1] === ' ' || body[at - 1] === '\t')) at--;
    if (at === 0 || body[at - 1] === '\n') return true;
    const cut = cuts[previous];
    if (cut?.end !== at) return false;
    at = cut.start;
  }
}

/** Whether only blanks and other cuts stand after the cut on its line. */
function endsLine(body: string, cuts: readonly Cut[], index: number): boolean {
  let at = (cuts[index] as Cut).end;
  for (let next = index + 1; ; next++) {
    while (at < body.length && (body[at] === ' ' || body[at] === '\t' || body[at] === '\r')) at++;
    if (at === body.length || body[at] === '\n') return true;
    const cut = cuts[next];
    if (cut?.start !== at) return false;
    at = cut.end;
  }
}

/** An attribute's value as literal Markdown text; its character references (`&amp;`) still decode. */
function escapeMarkdown(value: string): string {
  return value.replace(/(&#?\w+;)|[!-/:-@[-`{-~]/g, (mark, reference) => reference ?? `\\${mark}`);
}
