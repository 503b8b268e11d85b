/**
 * Uploading files, on either kind of server: `POST /user/projects/file/upload` (deployed servers
 * since 1.10) first, the seed's `/user/file/upload` when the server has no such route (see
 * `route-variants.ts`). Servers up to 1.9 answered a bare array of files; the answer is always
 * returned as `{ user_files, rejected_files }`.
 */
import { ROUTE_VARIANTS } from '@kis/rules';
import { uploadedFile } from '../../file-id.js';
import type { KisClient, UploadFile } from '../../kis-client.js';
import type { CallControl } from '../../request-options.js';
import type { paths, UserFile, UserFileUploadResponse } from '../../types.js';
import type { CallContext } from '../call.js';
import { asIs, multipartBody, toBlob, uploadForm } from '../forms.js';
import { onServedRoute } from '../route-variants.js';

const [PROJECTS_PATH, SEED_PATH] = ROUTE_VARIANTS.upload;

type ProjectsForm =
  paths[typeof PROJECTS_PATH]['post']['requestBody']['content']['multipart/form-data'];
type SeedForm = paths[typeof SEED_PATH]['post']['requestBody']['content']['multipart/form-data'];

/** Said when an upload failed in a way that may have stored the files. */
export const UPLOAD_HINT =
  'The files may or may not have been created; list the files before retrying.';

/** The answer in the shape current servers use (a bare array from servers up to 1.9). */
export function uploadAnswer(data: UserFileUploadResponse | UserFile[]): UserFileUploadResponse {
  return Array.isArray(data) ? { user_files: data, rejected_files: [] } : data;
}

/** `files.upload`: one `files` part per file. Retried only when the server surely did nothing. */
async function upload(
  ctx: CallContext,
  input: UploadFile | readonly UploadFile[],
  opts: CallControl | undefined,
): Promise<UserFileUploadResponse> {
  const form = uploadForm(input);
  const control: CallControl = { ...opts, retryMode: 'unsafe', unsafeHint: UPLOAD_HINT };
  const answer = await ctx.call(
    (fetch) =>
      onServedRoute(ctx.routes, 'upload', (i) =>
        i === 0
          ? ctx.api.POST(PROJECTS_PATH, {
              body: multipartBody<ProjectsForm>(form),
              bodySerializer: asIs,
              fetch,
            })
          : ctx.api.POST(SEED_PATH, {
              body: multipartBody<SeedForm>(form),
              bodySerializer: asIs,
              fetch,
            }),
      ),
    control,
    UPLOAD_HINT,
  );
  return uploadAnswer(answer);
}

/**
 * `files.uploadImage`: one file uploaded, found in the answer by the name it went by. Bulk runs
 * call it with their own control (the run's abort registry).
 */
export async function uploadImage(
  ctx: CallContext,
  file: UploadFile,
  opts: CallControl | undefined,
): Promise<ReturnType<typeof uploadedFile>> {
  const { name } = toBlob(file, 'file-1', 'files.uploadImage: file');
  return uploadedFile(await upload(ctx, file, opts), name);
}

/** `kis.files`. */
export function filesResource(ctx: CallContext): KisClient['files'] {
  return {
    upload: async (input, opts) => upload(ctx, input, opts),
    uploadImage: async (file, opts) => uploadImage(ctx, file, opts),
  };
}
