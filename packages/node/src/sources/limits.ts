/**
 * How much extraction reads: it holds a file, and for the zipped kinds its expanded parts, in
 * memory. Limits of this client, not of the service (which shows none: the contract's "Limits").
 */

/** The largest file read as a document by default: 100 MiB. */
export const MAX_FILE_BYTES = 100 * 1024 * 1024;

/** The most the parts read from one zipped file (.pptx, .xlsx, .epub) may expand to: 400 MiB. */
export const MAX_EXPANDED_BYTES = 4 * MAX_FILE_BYTES;
