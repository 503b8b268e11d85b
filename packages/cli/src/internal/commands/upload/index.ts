/** `kis upload FILE…`: image files uploaded, their file ids printed. */
import { setMaxListeners } from 'node:events';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ExtractionError, extensionsOfKind, extractFile, kindOf } from '@kis/node';
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue, UsageError } from '../../errors.js';
import { describeFailure } from '../../failure.js';
import { EXAMPLES } from '../../help-text.js';
import { mapConcurrent } from '../../pool.js';
import { fsReason } from '../../structured.js';

/** The image extensions the rule book knows (`.png .jpg .jpeg .gif .webp`). */
const IMAGE_EXTENSIONS = extensionsOfKind('image');

export function uploadCommand({ act, command }: CommandEnv): Command {
  return command('upload')
    .description(
      `upload image files (${IMAGE_EXTENSIONS.join(' ')}) and print their file ids, for image sections`,
    )
    .argument('<files...>', 'image files')
    .addHelpText(
      'after',
      EXAMPLES(['kis upload diagram.png photo.jpg', 'kis --json upload *.png']) +
        '\nPrints "FILE<TAB>FILE_ID" per file (--json: {"file","file_id"} per file, then a summary).\n',
    )
    .action(act((ctx, files: string[]) => runUpload(ctx, files)));
}

type UploadOutcome =
  | { file: string; fileId: string }
  | { file: string; error: string; fatal?: { message: string; exitCode: ExitCodeValue } };

/** `kis upload FILE…`: uploads images (checked to be what their extension says) and prints their file ids. */
export async function runUpload(ctx: Context, files: string[]): Promise<ExitCodeValue> {
  await checkFilesExist(ctx.io.cwd, files);
  const client = await ctx.client();
  const { out } = ctx;
  let failed = 0;
  let uploaded = 0;
  let fatal: { message: string; exitCode: ExitCodeValue } | undefined;
  const abort = new AbortController();
  // One listener per request in flight (uploads, ingestMany): more than the default 10.
  setMaxListeners(0, abort.signal);
  const one = async (file: string): Promise<UploadOutcome> => {
    try {
      const path = resolve(ctx.io.cwd, file);
      if (kindOf(path)?.kind !== 'image') {
        throw new ExtractionError(`not an image file; expected ${IMAGE_EXTENSIONS.join(', ')}`);
      }
      const image = await extractFile(path);
      if (image.kind !== 'image') throw new ExtractionError('not an image file');
      const { fileId } = await client.files.uploadImage(
        { data: image.bytes, fileName: image.name, contentType: image.mime },
        { signal: abort.signal },
      );
      return { file, fileId };
    } catch (error) {
      if (error instanceof ExtractionError) return { file, error: error.message };
      const failure = describeFailure(error, client.baseUrl);
      if (failure.fatal) {
        abort.abort();
        return { file, error: failure.message, fatal: failure };
      }
      return { file, error: failure.message };
    }
  };
  for await (const outcome of mapConcurrent(files, one, 4)) {
    if ('fileId' in outcome) {
      uploaded++;
      out.result(
        { file: outcome.file, file_id: outcome.fileId },
        `${outcome.file}\t${outcome.fileId}`,
      );
      continue;
    }
    if (outcome.fatal) {
      fatal ??= outcome.fatal;
      continue;
    }
    if (fatal) continue; // aborted because of the fatal error
    failed++;
    out.result({ file: outcome.file, error: outcome.error });
    if (!out.mode.json) out.error(`${outcome.file}: ${outcome.error}`);
  }
  if (fatal) {
    out.error(fatal.message);
    return fatal.exitCode;
  }
  out.result({ summary: { uploaded, failed } });
  return failed > 0 ? ExitCode.ItemsFailed : ExitCode.Ok;
}

/**
 * A FILE that is not there is a typo on the command line (exit 2, nothing uploaded), as for
 * `kis ingest PATH`; a file that is there but not an image is reported and the rest go on.
 */
async function checkFilesExist(cwd: string, files: readonly string[]): Promise<void> {
  for (const file of files) {
    let isFile: boolean;
    try {
      isFile = (await stat(resolve(cwd, file))).isFile();
    } catch (error) {
      throw new UsageError(`upload: FILE "${file}": ${fsReason(error)} (expected an image file)`);
    }
    if (!isFile)
      throw new UsageError(`upload: FILE "${file}": not a file (expected an image file)`);
  }
}
