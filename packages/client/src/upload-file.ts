/** What `kis.files.upload`, image sections and private-key updates take as a file. */

/** A file to upload: a `Blob`/`File`, or bytes with a file name. */
export type UploadFile =
  | Blob
  | {
      data: Blob | Uint8Array | ArrayBuffer | string;
      fileName: string;
      contentType?: string | undefined;
    };
