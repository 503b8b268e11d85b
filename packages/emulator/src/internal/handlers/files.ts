// Uploads to the file store: the seed's `/user/file/upload` and deployed servers'
// `/user/projects/file/upload` (uuid record ids, files start `PROCESSING`, `temp_id_map` keyed by
// size and name, text that is not JSON ignored).
import { HttpError } from '../errors.js';
import type { Handlers } from '../op-types.js';
import type { UploadWrite } from '../store/files.js';
import { projectUserFileView, seedUserFileView } from '../views.js';
import type { HandlerContext } from './context.js';

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

async function toUpload(part: File, projectId: number | null): Promise<UploadWrite> {
  return {
    name: part.name || 'upload',
    file_type: part.type || 'application/octet-stream',
    data: new Uint8Array(await part.arrayBuffer()),
    project_id: projectId,
  };
}

function fileParts(form: FormData | undefined): File[] {
  return (form?.getAll('files') ?? []).filter((p): p is File => p instanceof File);
}

/**
 * The seed upload's `temp_id_map`: client-side temporary ids and file names, in either direction
 * (`{ "tmp-1": "a.png" }` or `{ "a.png": "tmp-1" }`); text that is not JSON is a 400.
 */
function seedTempIds(text: string | undefined): Map<string, string> {
  const byName = new Map<string, string>();
  if (text === undefined || text === '') return byName;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Invalid JSON in temp_id_map: expected a JSON object of strings');
  }
  for (const [key, value] of Object.entries(asObject(parsed))) {
    if (typeof value !== 'string') continue;
    if (!byName.has(value)) byName.set(value, key);
    if (!byName.has(key)) byName.set(key, value);
  }
  return byName;
}

/** Deployed servers' key of a file in `temp_id_map`: `<size>|<first 50 characters of the name>`. */
function tempIdKey(size: number, name: string): string {
  return `${size}|${Array.from(name).slice(0, 50).join('')}`;
}

/** Deployed servers' `temp_id_map`: text that is not a JSON object is ignored. */
function projectTempIds(text: string | undefined): Record<string, unknown> {
  if (text === undefined || text === '') return {};
  try {
    return asObject(JSON.parse(text));
  } catch {
    return {};
  }
}

export function fileHandlers(
  ctx: HandlerContext,
): Pick<Handlers, 'uploadUserFiles' | 'uploadProjectFiles'> {
  const { store } = ctx;
  return {
    async uploadUserFiles({ fields, form }) {
      const projectId =
        typeof fields.project_id === 'number'
          ? fields.project_id
          : /^\d+$/.test(fields.project_id ?? '')
            ? Number(fields.project_id)
            : null;
      const tempIds = seedTempIds(fields.temp_id_map);
      const accepted: { write: UploadWrite; tempId: string | null }[] = [];
      const rejected: { file_name: string; reason: string }[] = [];
      for (const part of fileParts(form)) {
        const write = await toUpload(part, projectId);
        if (part.size === 0) {
          rejected.push({ file_name: write.name, reason: 'The file is empty' });
          continue;
        }
        accepted.push({ write, tempId: tempIds.get(write.name) ?? null });
      }
      const records = store.files.add(
        accepted.map((a) => a.write),
        'COMPLETED',
      );
      return {
        status: 200,
        body: {
          user_files: records.map((r, i) => seedUserFileView(r, accepted[i]?.tempId ?? null)),
          rejected_files: rejected,
        },
      };
    },

    async uploadProjectFiles({ fields, form }) {
      const projectId = fields.project_id ?? null;
      const tempIds = projectTempIds(fields.temp_id_map);
      const writes = await Promise.all(fileParts(form).map((p) => toUpload(p, projectId)));
      const records = store.files.add(writes, 'PROCESSING');
      return {
        status: 200,
        body: {
          user_files: records.map((r) => {
            const tempId = tempIds[tempIdKey(r.size, r.name)];
            return projectUserFileView(r, typeof tempId === 'string' ? tempId : null);
          }),
          rejected_files: [],
        },
      };
    },
  };
}
