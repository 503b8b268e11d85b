/**
 * Excel workbooks (.xlsx, .xlsm): one section per sheet, headed by its name, the rows written as
 * CSV files are (`column: value` lines, the first row naming the columns). Formulas count as the
 * values Excel cached when it last calculated them; dates as ISO dates.
 */
import type { ExtractedSection, Extraction, FileBytes } from '../extraction.js';
import { coreTitle, mainPart, relationships } from '../office-package.js';
import {
  attribute,
  childNamed,
  childrenNamed,
  descendantsNamed,
  loadXmlParser,
  prefixedAttribute,
  textContent,
  type XmlElement,
  type XmlParser,
} from '../xml-tree.js';
import { readZip, type ZipParts } from '../zip-archive.js';
import { rowsToText } from './delimited.js';
import { cellDateText, isDateFormat } from './xlsx-dates.js';

const WHAT = 'XLSX workbook';

/** What reading a sheet's cells needs from the rest of the workbook. */
interface Workbook {
  readonly strings: readonly string[];
  /** Per cell style index (`s`): whether numbers in that style are dates. */
  readonly dateStyles: readonly boolean[];
  readonly date1904: boolean;
}

export async function extractXlsx(file: FileBytes): Promise<Extraction> {
  const zip = await readZip(file, WHAT, (name) => /\.(xml|rels)$/i.test(name));
  const xml = await loadXmlParser(file.name);
  const { part, root } = mainPart(zip, xml, 'xl/workbook.xml', WHAT);
  const links = [...relationships(zip, xml, part).entries()];
  const partOf = (type: string) => links.find(([, link]) => link.type === type)?.[1].target;
  const workbook: Workbook = {
    strings: sharedStrings(zip, xml, partOf('sharedStrings')),
    dateStyles: dateStyles(zip, xml, partOf('styles')),
    date1904: /^(1|true)$/.test(
      attribute(childNamed(root, 'workbookPr') ?? root, 'date1904') ?? '',
    ),
  };
  const sheetLinks = new Map(links);
  const sections: ExtractedSection[] = [];
  const warnings: string[] = [];
  for (const sheet of descendantsNamed(childNamed(root, 'sheets') ?? root, 'sheet')) {
    const link = sheetLinks.get(prefixedAttribute(sheet, 'id') ?? '');
    // chart sheets and dialog sheets hold no cells
    if (link?.type !== 'worksheet') continue;
    const source = zip.text(link.target);
    if (source === undefined) continue;
    const name = attribute(sheet, 'name') ?? link.target;
    const { text, uncalculated } = sheetText(xml.parse(source, link.target).root, workbook);
    if (uncalculated > 0) {
      warnings.push(
        `sheet "${name}": ${uncalculated} formula cell(s) have no cached value (the workbook was saved without calculating them); left empty`,
      );
    }
    if (text !== '') sections.push({ heading: name, text });
  }
  const title = coreTitle(zip, xml);
  return {
    sections,
    ...(title ? { title } : {}),
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

function sharedStrings(zip: ZipParts, xml: XmlParser, part: string | undefined): string[] {
  const source = part ? zip.text(part) : undefined;
  if (!part || source === undefined) return [];
  return childrenNamed(xml.parse(source, part).root, 'si').map(richText);
}

/** A shared or inline string: its text runs, without phonetic guides (`rPh`). */
function richText(item: XmlElement): string {
  let text = '';
  for (const child of item.children) {
    if (typeof child === 'string') continue;
    if (child.local === 't') text += textContent(child);
    else if (child.local === 'r') text += richText(child);
  }
  return text;
}

function dateStyles(zip: ZipParts, xml: XmlParser, part: string | undefined): boolean[] {
  const source = part ? zip.text(part) : undefined;
  if (!part || source === undefined) return [];
  const root = xml.parse(source, part).root;
  const custom = new Map<number, string>();
  for (const format of descendantsNamed(childNamed(root, 'numFmts') ?? root, 'numFmt')) {
    custom.set(Number(attribute(format, 'numFmtId')), attribute(format, 'formatCode') ?? '');
  }
  return childrenNamed(childNamed(root, 'cellXfs') ?? root, 'xf').map((style) =>
    isDateFormat(Number(attribute(style, 'numFmtId') ?? 0), custom),
  );
}

/** A sheet's rows as `column: value` blocks; the first non-empty row names the columns. */
function sheetText(sheet: XmlElement, workbook: Workbook): { text: string; uncalculated: number } {
  const rows: string[][] = [];
  let uncalculated = 0;
  for (const row of descendantsNamed(childNamed(sheet, 'sheetData') ?? sheet, 'row')) {
    const values: string[] = [];
    let next = 0;
    for (const cell of childrenNamed(row, 'c')) {
      const ref = attribute(cell, 'r');
      const column = ref ? columnIndex(ref) : next;
      next = column + 1;
      const value = cellText(cell, workbook);
      if (value === undefined) uncalculated++;
      values[column] = (value ?? '').trim();
    }
    if (values.some((value) => value !== '')) rows.push(values);
  }
  const [header, ...data] = rows;
  if (!header) return { text: '', uncalculated };
  if (data.length === 0) return { text: header.filter(Boolean).join('\n'), uncalculated };
  const names = (column: number) => header[column] || columnLetters(column);
  const text = rowsToText(
    data.map((values) =>
      Array.from(values, (value, column) => [names(column), value ?? ''] as [string, string]),
    ),
  );
  return { text, uncalculated };
}

/** A cell's value as text; undefined for a formula with no cached value. */
function cellText(cell: XmlElement, workbook: Workbook): string | undefined {
  const type = attribute(cell, 't') ?? 'n';
  const valueElement = childNamed(cell, 'v');
  if (type === 'inlineStr') return richText(childNamed(cell, 'is') ?? cell);
  if (!valueElement) return childNamed(cell, 'f') ? undefined : '';
  const raw = textContent(valueElement);
  switch (type) {
    case 's':
      return workbook.strings[Number(raw)] ?? '';
    case 'b':
      return raw === '1' ? 'TRUE' : 'FALSE';
    case 'str':
    case 'e':
    case 'd':
      return raw;
    default: {
      const number = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(number)) return raw;
      if (workbook.dateStyles[Number(attribute(cell, 's') ?? 0)]) {
        return cellDateText(number, workbook.date1904);
      }
      // Excel shows 15 significant digits: 0.1 + 0.2 is 0.3, not 0.30000000000000004
      return String(Number(number.toPrecision(15)));
    }
  }
}

/** `C7` → 2 (zero-based). */
function columnIndex(ref: string): number {
  let index = 0;
  for (const char of ref.toUpperCase()) {
    const code = char.charCodeAt(0);
    if (code < 65 || code > 90) break;
    index = index * 26 + (code - 64);
  }
  return index - 1;
}

/** 2 → `C`: the name of a column without a header. */
function columnLetters(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  }
  return name;
}
