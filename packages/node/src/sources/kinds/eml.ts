/**
 * E-mail messages (.eml, RFC 5322 with MIME): the subject as title; `from`, `to`, `cc` and
 * `date` as metadata; the plain-text part as text (else the HTML part, as text). Attachments are
 * listed in the `attachments` metadata by name, not read.
 */
import type { Address, Email } from 'postal-mime';
import type { ExtractedMetadata, Extraction, FileBytes } from '../extraction.js';
import { singleSection, tidyText } from '../extraction.js';
import { ExtractionError } from '../extraction-error.js';
import { oneLine } from '../fs-reason.js';
import { optionalImport } from '../optional-import.js';
import { loadHtmlToText } from './html.js';

// postal-mime: a MIME parser with no dependencies by the author of Nodemailer (charsets,
// encoded words, nested parts), far smaller than mailparser; 2.3 M downloads a month.
const postalMime = optionalImport(['postal-mime@4.0.0'], () => import('postal-mime'));

/** Headers that a message has at least one of (RFC 5322 requires From and Date). */
const MESSAGE_HEADERS = new Set(['from', 'to', 'subject', 'date', 'message-id']);

export async function extractEml(file: FileBytes): Promise<Extraction> {
  const { default: PostalMime } = await postalMime(file.name);
  let email: Email;
  try {
    // attachments are listed, never read: decoding them as base64 text is the cheapest way
    email = await PostalMime.parse(file.bytes, { attachmentEncoding: 'base64' });
  } catch (error) {
    throw new ExtractionError(`not a valid e-mail message: ${oneLine(error)}`);
  }
  if (!email.headers.some((header) => MESSAGE_HEADERS.has(header.key))) {
    throw new ExtractionError(
      'not an e-mail message: no From, To, Subject, Date or Message-ID header',
    );
  }
  let text = email.text?.trim() ?? '';
  if (text === '' && email.html) text = (await loadHtmlToText(file.name))(email.html).text;
  const extraction = singleSection(tidyText(text), email.subject?.trim() || undefined);
  const metadata = headerMetadata(email);
  return Object.keys(metadata).length > 0 ? { ...extraction, metadata } : extraction;
}

function headerMetadata(email: Email): ExtractedMetadata {
  const metadata: ExtractedMetadata = {};
  if (email.from) metadata.from = formatAddress(email.from);
  for (const key of ['to', 'cc'] as const) {
    const list = email[key]?.map(formatAddress).filter((a) => a !== '');
    if (list && list.length > 0) metadata[key] = list;
  }
  if (email.date) metadata.date = email.date;
  const attachments = email.attachments
    // an image the HTML part shows (by Content-ID) is part of the message, not an attachment
    .filter((file) => !file.related || file.disposition === 'attachment')
    .map((file) => file.filename?.trim() || `(unnamed ${file.mimeType})`);
  if (attachments.length > 0) metadata.attachments = attachments;
  return metadata;
}

/** `Ada Lovelace <ada@example.com>`; a group as `Team: a@x, b@y`. */
function formatAddress(address: Address): string {
  if (address.group) {
    return `${address.name}: ${address.group.map(formatAddress).join(', ')}`.trim();
  }
  const name = address.name.trim();
  return name ? `${name} <${address.address}>` : address.address;
}
