// Reading request bodies as FastAPI does: JSON (by Content-Type), multipart and url-encoded forms,
// with the body-size limit enforced while reading a body of undeclared length. Reading and
// decoding are separate from validation, because deployed servers decode before they check the
// key and validate after.
import type { Context } from 'hono';
import { HttpError } from './errors.js';
import {
  type OperationInfo,
  type RequestBodyInfo,
  tooDeepIssue,
  tooDeepPath,
  type ValidationIssue,
} from './validation.js';

/** True when the request declares its length (the body limit was checked up front). */
function hasLength(c: Context): boolean {
  return (
    c.req.header('content-length') !== undefined && c.req.header('transfer-encoding') === undefined
  );
}

/** Reads a body of undeclared length, answering 413 once it passes `maxBytes`. */
async function readLimited(c: Context, maxBytes: number): Promise<Uint8Array> {
  const stream = c.req.raw.body;
  if (stream === null) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new HttpError(
        413,
        `Request body too large: the emulator accepts at most ${maxBytes} bytes (--max-body-bytes)`,
      );
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

async function readText(c: Context, maxBytes: number): Promise<string> {
  if (hasLength(c)) return c.req.text();
  return Buffer.from(await readLimited(c, maxBytes)).toString('utf8');
}

async function readForm(c: Context, maxBytes: number): Promise<FormData> {
  if (hasLength(c)) return c.req.formData();
  const bytes = await readLimited(c, maxBytes);
  const body = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return new Response(body as ArrayBuffer, {
    headers: { 'content-type': c.req.header('content-type') ?? '' },
  }).formData();
}

/** FastAPI's answer to a body that is not JSON: 422 `json_invalid` at the error position. */
function jsonInvalid(text: string, error: Error): ValidationIssue {
  const m = /position (\d+)/.exec(error.message);
  const position = m === null ? text.length : Number(m[1]);
  return {
    loc: ['body', position],
    msg: 'JSON decode error',
    type: 'json_invalid',
    input: {},
    ctx: { error: error.message },
  };
}

export interface JsonRead {
  /** The decoded body; undefined when there is none or it could not be decoded. */
  body: unknown;
  /** Decoding errors: FastAPI raises these before anything else is checked. */
  decodeIssues: ValidationIssue[];
  /** Errors found with the body's validation (no body, not sent as JSON, nested too deep). */
  issues: ValidationIssue[];
}

/** Reads and decodes a JSON body (not yet validated against its schema). */
export async function readJsonBody(
  c: Context,
  info: RequestBodyInfo,
  maxBytes: number,
): Promise<JsonRead> {
  const text = await readText(c, maxBytes);
  const type = c.req.header('content-type');
  if (text.trim() !== '' && type !== undefined && !/^application\/([\w.-]+\+)?json\b/i.test(type)) {
    // FastAPI reads the body as JSON only without a Content-Type or with a JSON one; anything
    // else reaches the model as raw bytes, which deployed servers answer with this 422
    return {
      body: undefined,
      decodeIssues: [],
      issues: [
        {
          loc: ['body'],
          msg: `Input should be a valid dictionary or object to extract fields from (the body was sent as ${type.split(';')[0]}; send Content-Type: application/json)`,
          type: 'model_attributes_type',
        },
      ],
    };
  }
  if (text.trim() === '') {
    const missing = { loc: ['body'], msg: 'Field required', type: 'missing', input: null };
    return { body: undefined, decodeIssues: [], issues: info.required ? [missing] : [] };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    return { body: undefined, decodeIssues: [jsonInvalid(text, error as Error)], issues: [] };
  }
  const deep = tooDeepPath(body);
  if (deep !== undefined) {
    return { body: undefined, decodeIssues: [], issues: [tooDeepIssue(deep, ['body'])] };
  }
  return { body, decodeIssues: [], issues: [] };
}

export interface FormRead {
  form: FormData;
  /** The form as an object for its schema: text parts as text, file parts as file names. */
  fields: Record<string, unknown>;
  /** A form that could not be parsed (raised before anything else is checked). */
  decodeIssues: ValidationIssue[];
  /** Text parts sent where a file is expected. */
  issues: ValidationIssue[];
}

/** Reads a multipart or url-encoded form (not yet validated against its schema). */
export async function readFormBody(
  c: Context,
  op: OperationInfo,
  maxBytes: number,
): Promise<FormRead> {
  const info = op.body!;
  let form: FormData;
  const type = c.req.header('content-type') ?? '';
  if (/^multipart\/form-data|^application\/x-www-form-urlencoded/i.test(type)) {
    try {
      form = await readForm(c, maxBytes);
    } catch (error) {
      if (error instanceof HttpError) throw error;
      return {
        form: new FormData(),
        fields: {},
        decodeIssues: [
          {
            loc: ['body'],
            msg: `Value error, the multipart body could not be parsed: ${(error as Error).message}`,
            type: 'value_error',
          },
        ],
        issues: [],
      };
    }
  } else {
    // Not a form (FastAPI then reports every required part as missing).
    form = new FormData();
  }
  // Empty text parts count as missing (FastAPI), and a text value where a file is expected is an
  // error.
  const issues: ValidationIssue[] = [];
  const fields: Record<string, unknown> = {};
  for (const name of new Set<string>([...form.keys()])) {
    const field = info.fields.get(name);
    const values = form.getAll(name).filter((v) => v !== '');
    if (values.length === 0) continue;
    if (field?.binary) {
      const mapped = values.map((v, i) => {
        if (!(v instanceof File)) {
          issues.push({
            loc: field.array ? ['body', name, i] : ['body', name],
            msg: "Value error, Expected UploadFile, received: <class 'str'>",
            type: 'value_error',
          });
        }
        return v instanceof File ? v.name || 'upload' : String(v);
      });
      fields[name] = field.array ? mapped : mapped[mapped.length - 1];
    } else if (field?.array) {
      fields[name] = values;
    } else {
      fields[name] = values[values.length - 1];
    }
  }
  return { form, fields, decodeIssues: [], issues };
}
