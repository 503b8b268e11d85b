/**
 * How much extraction reads: it holds a file in memory. A limit of this client, not of the
 * service (which shows none: the contract's "Limits").
 */

/** The largest file read as a document by default: 100 MiB. */
export const MAX_FILE_BYTES = 100 * 1024 * 1024;
