/** `getFileId`: the `file_id` an image section needs, read from an upload answer. */
import { KisError } from './errors.js';
import type { UserFile, UserFileUploadResponse } from './types.js';

/**
 * The `file_id` of an uploaded file in an upload answer (the only one, or the one named
 * `fileName`). Throws with the server's reason when the file was rejected.
 */
export function getFileId(response: UserFileUploadResponse, fileName?: string): string {
  const files = response?.user_files ?? [];
  const file =
    fileName === undefined
      ? files.length === 1
        ? files[0]
        : undefined
      : files.find((f) => f.name === fileName);
  if (file) return file.file_id;
  const rejected = (response?.rejected_files ?? []).find(
    (r) => fileName === undefined || r.file_name === fileName,
  );
  if (rejected) {
    throw new KisError(
      `The server rejected ${JSON.stringify(rejected.file_name)}: ${rejected.reason}`,
      { body: response },
    );
  }
  throw new KisError(
    fileName === undefined
      ? `Expected exactly one uploaded file in the answer, found ${files.length}; pass a fileName`
      : `No uploaded file named ${JSON.stringify(fileName)} in the answer (files: ${files.map((f) => f.name).join(', ') || 'none'})`,
    { body: response },
  );
}

/** `files.uploadImage`'s result: the file named `name` in an upload answer, and its `file_id`. */
export function uploadedFile(
  answer: UserFileUploadResponse,
  name: string,
): { fileId: string; file: UserFile } {
  const fileId = getFileId(answer, name);
  const file = answer.user_files.find((f) => f.file_id === fileId);
  return { fileId, file: file ?? { id: fileId, name, file_id: fileId } };
}
