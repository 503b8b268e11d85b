/**
 * What an extractor gives for one file: its text in sections, a title and metadata when the file
 * holds them, and warnings about what it could not read as it should (the file still counts).
 */

/** Metadata values as the service takes them: a string or a list of strings. */
export type ExtractedMetadata = Record<string, string | string[]>;

/** A part of a file's text: a slide, a sheet, a chapter; or the whole text of a plain file. */
export interface ExtractedSection {
  /** What the part is called (`Slide 3`, a sheet's name, a chapter's title). */
  heading?: string;
  text: string;
}

/** The result of one file kind's extractor. */
export interface Extraction {
  /** The text, in order: one section for a plain file, one per slide, sheet or chapter. */
  sections: ExtractedSection[];
  /** A title found in the file (front matter, `<title>`, PDF or book title, mail subject). */
  title?: string;
  /** Metadata found in the file (front matter keys, mail headers, book author). */
  metadata?: ExtractedMetadata;
  /** What was read differently than the kind asks (an MDX file that is not valid MDX). */
  warnings?: string[];
}

/** A file given to an extractor: its name (for messages) and its bytes. */
export interface FileBytes {
  /** The file's base name, e.g. `slides.pptx`. */
  readonly name: string;
  readonly bytes: Uint8Array;
}

/** The extraction of a file whose whole text is `text`, with an optional title. */
export function singleSection(text: string, title?: string): Extraction {
  return title ? { sections: [{ text }], title } : { sections: [{ text }] };
}

/** Text with runs of blank lines collapsed, trailing spaces dropped, trimmed. */
export function tidyText(text: string): string {
  return text
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
