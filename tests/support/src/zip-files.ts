/**
 * Zipped sample files built in the tests with fflate (the zip library the extractors use): Word
 * documents, PowerPoint presentations, Excel workbooks and EPUB books, each as small as the
 * format allows, with the parts real files have (relationships, content types, properties).
 */
import { strToU8, zipSync } from 'fflate';

/** A zip archive of the given entries (deflated; `mimetype` stored, as EPUB requires). */
export function makeZip(entries: Record<string, string | Uint8Array>): Buffer {
  const files: Record<string, [Uint8Array, { level: 0 | 6 }]> = {};
  for (const [name, content] of Object.entries(entries)) {
    const data = typeof content === 'string' ? strToU8(content) : content;
    files[name] = [data, { level: name === 'mimetype' ? 0 : 6 }];
  }
  return Buffer.from(zipSync(files));
}

export const xmlEscape = (s: string) =>
  s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c] ?? c);

const XML_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

function rels(links: readonly [id: string, type: string, target: string][]): string {
  const items = links.map(
    ([id, type, target]) => `<Relationship Id="${id}" Type="${type}" Target="${target}"/>`,
  );
  return `${XML_DECL}<Relationships xmlns="${PKG_REL_NS}">${items.join('')}</Relationships>`;
}

function coreProperties(title: string | undefined): string {
  return (
    `${XML_DECL}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ` +
    'xmlns:dc="http://purl.org/dc/elements/1.1/">' +
    (title === undefined ? '' : `<dc:title>${xmlEscape(title)}</dc:title>`) +
    '<dc:creator>kis tests</dc:creator></cp:coreProperties>'
  );
}

function contentTypes(overrides: readonly [part: string, type: string][]): string {
  return (
    `${XML_DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    overrides
      .map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`)
      .join('') +
    '</Types>'
  );
}

/** A DOCX document with one paragraph per item of `paragraphs`. */
export function makeDocx(paragraphs: readonly string[]): Buffer {
  const body = paragraphs
    .map((p) => `<w:p><w:r><w:t xml:space="preserve">${xmlEscape(p)}</w:t></w:r></w:p>`)
    .join('');
  return makeZip({
    '[Content_Types].xml': contentTypes([
      [
        '/word/document.xml',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
      ],
    ]),
    '_rels/.rels': rels([['rId1', `${REL_NS}/officeDocument`, 'word/document.xml']]),
    'word/document.xml':
      `${XML_DECL}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">` +
      `<w:body>${body}</w:body></w:document>`,
  });
}

const A_NS = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const P_NS = 'http://schemas.openxmlformats.org/presentationml/2006/main';

export interface SlideSpec {
  /** Text boxes, each a list of paragraphs. */
  boxes: readonly (readonly string[])[];
  /** Speaker notes, one paragraph each. */
  notes?: readonly string[];
}

function shape(paragraphs: readonly string[], placeholder?: string): string {
  const ph = placeholder ? `<p:ph type="${placeholder}"/>` : '';
  const body = paragraphs
    .map((p) => {
      // a line break inside a paragraph is an <a:br/> between runs
      const runs = p
        .split('\n')
        .map((line) => `<a:r><a:rPr lang="en-GB"/><a:t>${xmlEscape(line)}</a:t></a:r>`);
      return `<a:p>${runs.join('<a:br/>')}</a:p>`;
    })
    .join('');
  return (
    `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Box"/><p:cNvSpPr/><p:nvPr>${ph}</p:nvPr></p:nvSpPr>` +
    `<p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/>${body}</p:txBody></p:sp>`
  );
}

function slidePart(root: 'sld' | 'notes', shapes: string): string {
  return (
    `${XML_DECL}<p:${root} xmlns:a="${A_NS}" xmlns:p="${P_NS}" xmlns:r="${REL_NS}">` +
    `<p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>` +
    `<p:grpSpPr/>${shapes}</p:spTree></p:cSld></p:${root}>`
  );
}

/**
 * A PPTX presentation. Slide parts are numbered backwards (the first slide is the last part) so
 * that reading them in file order instead of the presentation's order shows.
 */
export function makePptx(slides: readonly SlideSpec[], title?: string): Buffer {
  const entries: Record<string, string> = {};
  const count = slides.length;
  const overrides: [string, string][] = [
    [
      '/ppt/presentation.xml',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml',
    ],
  ];
  const presentationLinks: [string, string, string][] = [];
  const ids: string[] = [];
  slides.forEach((slide, i) => {
    const n = count - i;
    entries[`ppt/slides/slide${n}.xml`] = slidePart(
      'sld',
      slide.boxes.map((b) => shape(b)).join(''),
    );
    overrides.push([
      `/ppt/slides/slide${n}.xml`,
      'application/vnd.openxmlformats-officedocument.presentationml.slide+xml',
    ]);
    presentationLinks.push([`rId${n + 1}`, `${REL_NS}/slide`, `slides/slide${n}.xml`]);
    ids.push(`<p:sldId id="${256 + i}" r:id="rId${n + 1}"/>`);
    if (slide.notes) {
      entries[`ppt/slides/_rels/slide${n}.xml.rels`] = rels([
        ['rId1', `${REL_NS}/slideLayout`, '../slideLayouts/slideLayout1.xml'],
        ['rId2', `${REL_NS}/notesSlide`, `../notesSlides/notesSlide${n}.xml`],
      ]);
      entries[`ppt/notesSlides/notesSlide${n}.xml`] = slidePart(
        'notes',
        shape([], 'sldImg') + shape(slide.notes, 'body') + shape([String(i + 1)], 'sldNum'),
      );
    }
  });
  presentationLinks.push(['rId1', `${REL_NS}/slideMaster`, 'slideMasters/slideMaster1.xml']);
  entries['ppt/presentation.xml'] =
    `${XML_DECL}<p:presentation xmlns:a="${A_NS}" xmlns:p="${P_NS}" xmlns:r="${REL_NS}">` +
    `<p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst>` +
    `<p:sldIdLst>${ids.join('')}</p:sldIdLst><p:sldSz cx="9144000" cy="6858000"/></p:presentation>`;
  entries['ppt/_rels/presentation.xml.rels'] = rels(presentationLinks);
  entries['[Content_Types].xml'] = contentTypes(overrides);
  entries['_rels/.rels'] = rels([
    ['rId1', `${REL_NS}/officeDocument`, 'ppt/presentation.xml'],
    ['rId2', `${PKG_REL_NS}/metadata/core-properties`, 'docProps/core.xml'],
  ]);
  entries['docProps/core.xml'] = coreProperties(title);
  return makeZip(entries);
}

/** A cell: text (shared), a number, a boolean, a date, inline text or a formula. */
export type CellSpec =
  | string
  | number
  | boolean
  | null
  | { date: string }
  | { inline: string }
  | { formula: string; cached?: number | string };

export interface SheetSpec {
  name: string;
  rows: readonly (readonly CellSpec[])[];
}

const DAY_MS = 86_400_000;

/** An XLSX workbook; strings go to the shared-string table, dates carry a date style. */
export function makeXlsx(sheets: readonly SheetSpec[], title?: string): Buffer {
  const strings: string[] = [];
  const shared = (s: string) => {
    const at = strings.indexOf(s);
    return at >= 0 ? at : strings.push(s) - 1;
  };
  const cellXml = (cell: CellSpec, ref: string): string => {
    if (cell === null) return '';
    if (typeof cell === 'string') return `<c r="${ref}" t="s"><v>${shared(cell)}</v></c>`;
    if (typeof cell === 'number') return `<c r="${ref}"><v>${cell}</v></c>`;
    if (typeof cell === 'boolean') return `<c r="${ref}" t="b"><v>${cell ? 1 : 0}</v></c>`;
    if ('date' in cell) {
      const ms = Date.parse(cell.date.includes('T') ? `${cell.date}Z` : cell.date);
      const serial = (ms - Date.UTC(1899, 11, 30)) / DAY_MS;
      return `<c r="${ref}" s="${cell.date.includes('T') ? 2 : 1}"><v>${serial}</v></c>`;
    }
    if ('inline' in cell) {
      return `<c r="${ref}" t="inlineStr"><is><t>${xmlEscape(cell.inline)}</t></is></c>`;
    }
    const type = typeof cell.cached === 'string' ? ' t="str"' : '';
    const cached = cell.cached === undefined ? '' : `<v>${xmlEscape(String(cell.cached))}</v>`;
    return `<c r="${ref}"${type}><f>${xmlEscape(cell.formula)}</f>${cached}</c>`;
  };
  const entries: Record<string, string> = {};
  const sheetEntries = sheets.map((sheet, i) => {
    const rows = sheet.rows
      .map((row, r) => {
        const cells = row.map((cell, c) => cellXml(cell, `${String.fromCharCode(65 + c)}${r + 1}`));
        return `<row r="${r + 1}">${cells.join('')}</row>`;
      })
      .join('');
    entries[`xl/worksheets/sheet${i + 1}.xml`] =
      `${XML_DECL}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${REL_NS}">` +
      `<sheetData>${rows}</sheetData></worksheet>`;
    return `<sheet name="${xmlEscape(sheet.name)}" sheetId="${i + 1}" r:id="rId${i + 3}"/>`;
  });
  entries['xl/workbook.xml'] =
    `${XML_DECL}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${REL_NS}">` +
    `<workbookPr/><sheets>${sheetEntries.join('')}</sheets></workbook>`;
  entries['xl/_rels/workbook.xml.rels'] = rels([
    ['rId1', `${REL_NS}/sharedStrings`, 'sharedStrings.xml'],
    ['rId2', `${REL_NS}/styles`, 'styles.xml'],
    ...sheets.map(
      (_, i) =>
        [`rId${i + 3}`, `${REL_NS}/worksheet`, `worksheets/sheet${i + 1}.xml`] as [
          string,
          string,
          string,
        ],
    ),
  ]);
  entries['xl/sharedStrings.xml'] =
    `${XML_DECL}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.length}" uniqueCount="${strings.length}">` +
    `${strings.map((s) => `<si><t xml:space="preserve">${xmlEscape(s)}</t></si>`).join('')}</sst>`;
  entries['xl/styles.xml'] =
    `${XML_DECL}<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
    '<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd\\ hh:mm"/></numFmts>' +
    '<cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/><xf numFmtId="164" applyNumberFormat="1"/></cellXfs>' +
    '</styleSheet>';
  entries['[Content_Types].xml'] = contentTypes([
    [
      '/xl/workbook.xml',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
    ],
  ]);
  entries['_rels/.rels'] = rels([
    ['rId1', `${REL_NS}/officeDocument`, 'xl/workbook.xml'],
    ['rId2', `${PKG_REL_NS}/metadata/core-properties`, 'docProps/core.xml'],
  ]);
  entries['docProps/core.xml'] = coreProperties(title);
  return makeZip(entries);
}

export interface ChapterSpec {
  /** The chapter's entry in the table of contents. */
  title: string;
  /** The body's inner XHTML. */
  body: string;
}

/**
 * An EPUB book (version 3 with a navigation document, or 2 with an NCX table). The manifest
 * lists the chapters backwards, so reading them in manifest order instead of spine order shows;
 * a cover picture checks that pictures are not read.
 */
export function makeEpub(book: {
  title: string;
  authors: readonly string[];
  chapters: readonly ChapterSpec[];
  version?: 2 | 3;
}): Buffer {
  const version = book.version ?? 3;
  const entries: Record<string, string | Uint8Array> = {
    mimetype: 'application/epub+zip',
    'META-INF/container.xml':
      '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">' +
      '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    'OEBPS/images/cover.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]),
  };
  const chapterFile = (i: number) => `text/chapter ${i + 1}.xhtml`;
  book.chapters.forEach((chapter, i) => {
    entries[`OEBPS/${chapterFile(i)}`] =
      `<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml">` +
      `<head><title>${xmlEscape(book.title)}</title><style>p { margin: 0 }</style></head>` +
      `<body>${chapter.body}</body></html>`;
  });
  const href = (i: number) => encodeURI(chapterFile(i));
  const manifest = book.chapters
    .map((_, i) => `<item id="c${i + 1}" href="${href(i)}" media-type="application/xhtml+xml"/>`)
    .reverse();
  manifest.push('<item id="cover" href="images/cover.png" media-type="image/png"/>');
  if (version === 3) {
    manifest.push(
      '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>',
    );
    entries['OEBPS/nav.xhtml'] =
      '<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">' +
      '<head><title>Contents</title></head><body><nav epub:type="toc"><ol>' +
      book.chapters
        .map((c, i) => `<li><a href="${href(i)}">${xmlEscape(c.title)}</a></li>`)
        .join('') +
      '</ol></nav></body></html>';
  } else {
    manifest.push('<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>');
    entries['OEBPS/toc.ncx'] =
      '<?xml version="1.0" encoding="UTF-8"?><ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><navMap>' +
      book.chapters
        .map(
          (c, i) =>
            `<navPoint id="n${i + 1}" playOrder="${i + 1}"><navLabel><text>${xmlEscape(c.title)}</text></navLabel>` +
            `<content src="${href(i)}"/></navPoint>`,
        )
        .join('') +
      '</navMap></ncx>';
  }
  const spine = book.chapters.map((_, i) => `<itemref idref="c${i + 1}"/>`).join('');
  entries['OEBPS/content.opf'] =
    `<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" version="${version}.0" unique-identifier="id">` +
    '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">' +
    `<dc:identifier id="id">urn:uuid:00000000-0000-4000-8000-000000000000</dc:identifier>` +
    `<dc:title>${xmlEscape(book.title)}</dc:title>` +
    book.authors.map((a) => `<dc:creator>${xmlEscape(a)}</dc:creator>`).join('') +
    '<dc:language>en</dc:language></metadata>' +
    `<manifest>${manifest.join('')}</manifest>` +
    `<spine${version === 2 ? ' toc="ncx"' : ''}>${spine}</spine></package>`;
  return makeZip(entries);
}
