// Request validation compiled from the bundled OpenAPI document (@kis/spec): the document is
// added to Ajv as one schema named `spec`, and each operation's parameters and request body are
// validated with the schemas its `paths` entry names. Ajv errors are translated to FastAPI's
// `HTTPValidationError` shape (`detail[].loc/msg/type`), which is what deployed servers answer.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isDateTime } from '@kis/rules';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import { intFromText } from './lax-scalars.js';

// ajv-formats is CommonJS with a `default` export; under NodeNext its default import is typed
// as the module object.
const addFormats = formatsPlugin as unknown as typeof formatsPlugin.default;

export type JsonSchema = Record<string, unknown>;
export type Loc = (string | number)[];

/** One FastAPI validation error item. */
export interface ValidationIssue {
  loc: Loc;
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

export type ParamLocation = 'path' | 'query' | 'header';

export interface ParameterInfo {
  name: string;
  in: ParamLocation;
  required: boolean;
  schema: JsonSchema;
  validate: ValidateFunction;
}

export interface MultipartField {
  name: string;
  /** A file part (or a list of file parts when `array`). */
  binary: boolean;
  array: boolean;
}

export interface RequestBodyInfo {
  required: boolean;
  mediaType: 'application/json' | 'multipart/form-data';
  /** The body's schema (as the document writes it: possibly a `$ref`). */
  schema: unknown;
  validate: ValidateFunction;
  /** For multipart bodies: the fields of the form, by name. */
  fields: Map<string, MultipartField>;
}

export interface OperationInfo {
  operationId: string;
  method: string;
  /** The spec's path template, e.g. `/manage/admin/connector/{connector_id}/credential/{credential_id}`. */
  path: string;
  parameters: ParameterInfo[];
  body: RequestBodyInfo | undefined;
  /** Statuses documented for the operation (numbers, or `default`). */
  responses: Set<string>;
}

export type OpenApiDocument = {
  openapi: string;
  paths?: Record<string, Record<string, unknown>>;
  components?: Record<string, unknown>;
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** Reads the bundled document of `@kis/spec` (or `path`). */
export function loadSpec(path?: string): OpenApiDocument {
  const file = path ?? createRequire(import.meta.url).resolve('@kis/spec/openapi.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(
      `cannot read the OpenAPI document ${file} (build it with \`pnpm --filter @kis/spec build\`): ${(error as Error).message}`,
    );
  }
  const doc = JSON.parse(text) as OpenApiDocument;
  if (typeof doc.openapi !== 'string' || typeof doc.paths !== 'object') {
    throw new Error(`${file} is not an OpenAPI document (no openapi/paths)`);
  }
  return doc;
}

function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

function unescapePointer(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Compiled request validators for every operation of an OpenAPI document. */
export class SpecValidators {
  readonly ajv: Ajv2020;
  readonly doc: OpenApiDocument;
  readonly operations: OperationInfo[] = [];
  private readonly byId = new Map<string, OperationInfo>();
  /** JSON pointer (inside the document) of every object in it, for compiling union branches. */
  private readonly pointers = new WeakMap<object, string>();
  private readonly branchValidators = new WeakMap<object, ValidateFunction>();

  /** Missing-field issues carry the enclosing object as `input`, as pydantic reports them. */
  private readonly missingInput: boolean;

  constructor(doc: OpenApiDocument, options: { missingInput?: boolean } = {}) {
    this.doc = doc;
    this.missingInput = options.missingInput ?? false;
    this.ajv = new Ajv2020({
      strict: false,
      allErrors: true,
      verbose: true,
      validateSchema: false,
      addUsedSchema: false,
    });
    addFormats(this.ajv);
    // date-time as deployed servers read it (ISO 8601, offset optional), not RFC 3339 only
    this.ajv.addFormat('date-time', { type: 'string', validate: isDateTime });
    this.ajv.addSchema(doc as object, 'spec');
    this.indexPointers(doc, '');
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      const shared = Array.isArray(item.parameters) ? item.parameters : [];
      for (const method of METHODS) {
        const op = item[method];
        if (!isObject(op)) continue;
        const info = this.compileOperation(path, method, op, shared);
        this.operations.push(info);
        this.byId.set(info.operationId, info);
      }
    }
  }

  private indexPointers(value: unknown, pointer: string): void {
    if (typeof value !== 'object' || value === null) return;
    this.pointers.set(value, pointer);
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        this.indexPointers(item, `${pointer}/${i}`);
      });
    } else {
      for (const [key, item] of Object.entries(value)) {
        this.indexPointers(item, `${pointer}/${escapePointer(key)}`);
      }
    }
  }

  /** Follows `$ref`s inside the document (`#/...`). */
  resolve(value: unknown): unknown {
    let current = value;
    for (let i = 0; i < 32 && isObject(current) && typeof current.$ref === 'string'; i++) {
      const ref = current.$ref;
      if (!ref.startsWith('#/')) throw new Error(`unsupported $ref ${ref}: only #/... refs`);
      current = ref
        .slice(2)
        .split('/')
        .reduce<unknown>(
          (node, seg) => (isObject(node) ? node[unescapePointer(seg)] : undefined),
          this.doc,
        );
    }
    return current;
  }

  /** A validator for a schema object of the document (by its position in it). */
  private validatorFor(schema: unknown, where: string): ValidateFunction {
    if (isObject(schema) && typeof schema.$ref === 'string' && schema.$ref.startsWith('#/')) {
      const v = this.ajv.getSchema(`spec${schema.$ref}`);
      if (v === undefined) throw new Error(`${where}: cannot resolve ${schema.$ref}`);
      return v;
    }
    if (typeof schema === 'object' && schema !== null) {
      const pointer = this.pointers.get(schema);
      if (pointer !== undefined) {
        const v = this.ajv.getSchema(`spec#${pointer}`);
        if (v !== undefined) return v;
      }
    }
    if (schema === true || schema === undefined) return this.ajv.compile({});
    throw new Error(`${where}: schema is not part of the document`);
  }

  private compileOperation(
    path: string,
    method: string,
    op: Record<string, unknown>,
    shared: unknown[],
  ): OperationInfo {
    const where = `${method.toUpperCase()} ${path}`;
    const operationId = typeof op.operationId === 'string' ? op.operationId : where;
    const params = new Map<string, ParameterInfo>();
    const own = Array.isArray(op.parameters) ? op.parameters : [];
    for (const raw of [...shared, ...own]) {
      const p = this.resolve(raw);
      if (!isObject(p) || typeof p.name !== 'string') continue;
      if (p.in !== 'path' && p.in !== 'query' && p.in !== 'header') continue;
      const schema = (this.resolve(p.schema) ?? {}) as JsonSchema;
      params.set(`${p.in}:${p.name}`, {
        name: p.name,
        in: p.in,
        required: p.in === 'path' || p.required === true,
        schema,
        validate: this.validatorFor(p.schema, `${where} parameter ${p.name}`),
      });
    }
    let body: RequestBodyInfo | undefined;
    const rb = this.resolve(op.requestBody);
    if (isObject(rb) && isObject(rb.content)) {
      const content = rb.content;
      const json = content['application/json'];
      const multipart = content['multipart/form-data'];
      if (isObject(json)) {
        body = {
          required: rb.required === true,
          mediaType: 'application/json',
          schema: json.schema,
          validate: this.validatorFor(json.schema, `${where} request body`),
          fields: new Map(),
        };
      } else if (isObject(multipart)) {
        body = {
          required: rb.required === true,
          mediaType: 'multipart/form-data',
          schema: multipart.schema,
          validate: this.validatorFor(multipart.schema, `${where} request body`),
          fields: this.multipartFields(multipart.schema, multipart.encoding),
        };
      }
    }
    const responses = new Set(Object.keys(isObject(op.responses) ? op.responses : {}));
    return {
      operationId,
      method,
      path,
      parameters: [...params.values()],
      body,
      responses,
    };
  }

  /** The properties of a multipart form schema, telling file parts from text parts. */
  private multipartFields(schemaRef: unknown, encoding: unknown): Map<string, MultipartField> {
    const fields = new Map<string, MultipartField>();
    const schema = this.resolve(schemaRef);
    if (!isObject(schema) || !isObject(schema.properties)) return fields;
    for (const [name, raw] of Object.entries(schema.properties)) {
      const enc = isObject(encoding) ? encoding[name] : undefined;
      const encType = isObject(enc) && typeof enc.contentType === 'string' ? enc.contentType : '';
      let binary = false;
      let array = false;
      // A property may be a union (e.g. one file or a list of files): look at every branch.
      const visit = (node: unknown, depth: number): void => {
        const s = this.resolve(node);
        if (!isObject(s) || depth > 8) return;
        for (const key of ['anyOf', 'oneOf', 'allOf']) {
          const list = s[key];
          if (Array.isArray(list)) for (const sub of list) visit(sub, depth + 1);
        }
        if (s.type === 'array') {
          array = true;
          const item = this.resolve(s.items);
          if (isObject(item) && isBinarySchema(item, encType)) binary = true;
        } else if (isBinarySchema(s, encType)) {
          binary = true;
        }
      };
      visit(raw, 0);
      fields.set(name, { name, binary, array });
    }
    return fields;
  }

  operation(operationId: string): OperationInfo | undefined {
    return this.byId.get(operationId);
  }

  /**
   * Runs a validator and translates its errors into FastAPI-style issues, with `loc` starting
   * at `prefix` (e.g. `['body']`).
   */
  check(validate: ValidateFunction, data: unknown, prefix: Loc): ValidationIssue[] {
    if (validate(data)) return [];
    return this.translate(validate.errors ?? [], data, prefix);
  }

  private translate(errors: ErrorObject[], data: unknown, prefix: Loc): ValidationIssue[] {
    // Union keywords (anyOf/oneOf) are preceded by the errors of all their branches. Replace that
    // run with the errors of the branch that came closest, as FastAPI users expect one answer.
    const keep: (ErrorObject | ValidationIssue[])[] = [];
    for (const error of errors) {
      if (error.keyword === 'anyOf' || error.keyword === 'oneOf') {
        const base = error.instancePath;
        while (keep.length > 0) {
          const last = keep[keep.length - 1]!;
          if (Array.isArray(last)) {
            if (!last.every((issue) => isUnder(issue.loc, prefix, base, data))) break;
          } else if (!(last.instancePath === base || last.instancePath.startsWith(`${base}/`))) {
            break;
          }
          keep.pop();
        }
        keep.push(this.unionIssues(error, data, prefix));
      } else {
        keep.push(error);
      }
    }
    const issues: ValidationIssue[] = [];
    const seen = new Set<string>();
    for (const item of keep) {
      const list = Array.isArray(item) ? item : [this.issue(item, data, prefix)];
      for (const issue of list) {
        const key = `${JSON.stringify(issue.loc)}|${issue.type}`;
        if (seen.has(key)) continue;
        seen.add(key);
        issues.push(ordered(issue));
      }
    }
    return issues;
  }

  private unionIssues(error: ErrorObject, data: unknown, prefix: Loc): ValidationIssue[] {
    const loc = [...prefix, ...instanceLoc(error.instancePath, data)];
    const branches = Array.isArray(error.schema) ? (error.schema as unknown[]) : [];
    const passing = (error.params as { passingSchemas?: number[] | null }).passingSchemas;
    if (error.keyword === 'oneOf' && Array.isArray(passing) && passing.length > 1) {
      return [
        {
          loc,
          msg: `Value error, the value matches more than one of the allowed shapes (${passing.join(', ')})`,
          type: 'value_error',
          input: error.data,
        },
      ];
    }
    let best: { issues: ValidationIssue[]; score: number } | undefined;
    for (const branch of branches) {
      let validate: ValidateFunction;
      try {
        validate = this.branchValidator(branch);
      } catch {
        continue;
      }
      if (validate(error.data)) continue;
      const branchErrors = validate.errors ?? [];
      // A branch rejected at its root by type is a worse guess than one that got further in.
      const rootType = branchErrors.some(
        (e) => e.instancePath === '' && (e.keyword === 'type' || e.keyword === 'const'),
      );
      const issues = this.translate(branchErrors, error.data, loc);
      const score = issues.length + (rootType ? 1000 : 0);
      if (best === undefined || score < best.score) best = { issues, score };
    }
    if (best !== undefined && best.issues.length > 0) return best.issues;
    return [{ loc, msg: 'Input does not match any of the allowed shapes', type: 'union_error' }];
  }

  /** The JSON pointer of a schema object inside the document (`/components/schemas/X`), if any. */
  pointerOf(schema: object): string | undefined {
    return this.pointers.get(schema);
  }

  /** A (cached) validator for any schema object of the document, e.g. one branch of a union. */
  validatorOf(branch: unknown): ValidateFunction {
    return this.branchValidator(branch);
  }

  private branchValidator(branch: unknown): ValidateFunction {
    if (typeof branch !== 'object' || branch === null) return this.ajv.compile({});
    let v = this.branchValidators.get(branch);
    if (v === undefined) {
      v = this.validatorFor(branch, 'union branch');
      this.branchValidators.set(branch, v);
    }
    return v;
  }

  private issue(error: ErrorObject, data: unknown, prefix: Loc): ValidationIssue {
    const loc: Loc = [...prefix, ...instanceLoc(error.instancePath, data)];
    const params = error.params as Record<string, unknown>;
    const input = error.data;
    switch (error.keyword) {
      case 'required':
        return {
          loc: [...loc, String(params.missingProperty)],
          msg: 'Field required',
          type: 'missing',
          ...(this.missingInput ? { input } : {}),
        };
      case 'additionalProperties':
      case 'unevaluatedProperties': {
        const name = String(params.additionalProperty ?? params.unevaluatedProperty);
        const value = isObject(input) ? input[name] : undefined;
        return {
          loc: [...loc, name],
          msg: 'Extra inputs are not permitted',
          type: 'extra_forbidden',
          input: value,
        };
      }
      case 'type':
        return { loc, input, ...typeIssue(String(params.type), input) };
      case 'enum': {
        const allowed = Array.isArray(params.allowedValues) ? params.allowedValues : [];
        return {
          loc,
          msg: `Input should be ${listValues(allowed)}`,
          type: 'enum',
          input,
          ctx: { expected: listValues(allowed) },
        };
      }
      case 'const':
        return {
          loc,
          msg: `Input should be ${JSON.stringify(params.allowedValue)}`,
          type: 'literal_error',
          input,
        };
      case 'format':
        return { loc, input, ...formatIssue(String(params.format)) };
      case 'minimum':
        return bound(loc, input, 'greater_than_equal', 'greater than or equal to', params.limit);
      case 'exclusiveMinimum':
        return bound(loc, input, 'greater_than', 'greater than', params.limit);
      case 'maximum':
        return bound(loc, input, 'less_than_equal', 'less than or equal to', params.limit);
      case 'exclusiveMaximum':
        return bound(loc, input, 'less_than', 'less than', params.limit);
      case 'minLength':
        return {
          loc,
          input,
          msg: `String should have at least ${params.limit} character${params.limit === 1 ? '' : 's'}`,
          type: 'string_too_short',
          ctx: { min_length: params.limit },
        };
      case 'maxLength':
        return {
          loc,
          input,
          msg: `String should have at most ${params.limit} character${params.limit === 1 ? '' : 's'}`,
          type: 'string_too_long',
          ctx: { max_length: params.limit },
        };
      case 'minItems':
        return {
          loc,
          input,
          msg: `List should have at least ${params.limit} item${params.limit === 1 ? '' : 's'} after validation, not ${Array.isArray(input) ? input.length : 0}`,
          type: 'too_short',
        };
      case 'maxItems':
        return {
          loc,
          input,
          msg: `List should have at most ${params.limit} item${params.limit === 1 ? '' : 's'} after validation, not ${Array.isArray(input) ? input.length : 0}`,
          type: 'too_long',
        };
      case 'pattern':
        return {
          loc,
          input,
          msg: `String should match pattern '${String(params.pattern)}'`,
          type: 'string_pattern_mismatch',
        };
      // minProperties, uniqueItems, multipleOf, not, dependentRequired, propertyNames, ...
      default:
        return {
          loc,
          input,
          msg: `Value error, ${error.message ?? 'invalid value'}`,
          type: 'value_error',
        };
    }
  }
}

/** FastAPI's key order: loc, msg, type, input, ctx. */
function ordered(issue: ValidationIssue): ValidationIssue {
  const out: ValidationIssue = { loc: issue.loc, msg: issue.msg, type: issue.type };
  if ('input' in issue) out.input = issue.input;
  if (issue.ctx !== undefined) out.ctx = issue.ctx;
  return out;
}

function isBinarySchema(s: Record<string, unknown>, encodingType: string): boolean {
  return (
    s.format === 'binary' ||
    (typeof s.contentMediaType === 'string' &&
      !/^(text\/|application\/json)/.test(s.contentMediaType)) ||
    (s.type === 'string' && encodingType !== '' && !encodingType.startsWith('text/'))
  );
}

function isUnder(loc: Loc, prefix: Loc, instancePath: string, data: unknown): boolean {
  const base = [...prefix, ...instanceLoc(instancePath, data)];
  return base.every((seg, i) => loc[i] === seg);
}

/** Turns an Ajv instancePath into a FastAPI loc: array indexes as numbers, keys as strings. */
export function instanceLoc(instancePath: string, data: unknown): Loc {
  if (instancePath === '') return [];
  const loc: Loc = [];
  let node: unknown = data;
  for (const raw of instancePath.slice(1).split('/')) {
    const seg = unescapePointer(raw);
    if (Array.isArray(node)) {
      const index = Number(seg);
      loc.push(index);
      node = node[index];
    } else {
      loc.push(seg);
      node = isObject(node) ? node[seg] : undefined;
    }
  }
  return loc;
}

function listValues(values: unknown[]): string {
  const shown = values.map((v) => (typeof v === 'string' ? `'${v}'` : JSON.stringify(v)));
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} or ${shown[shown.length - 1]}`;
}

function bound(loc: Loc, input: unknown, type: string, words: string, limit: unknown) {
  return { loc, input, msg: `Input should be ${words} ${String(limit)}`, type };
}

function typeIssue(types: string, input: unknown): { msg: string; type: string } {
  const wanted = types.split(',').filter((t) => t !== 'null');
  const first = wanted[0] ?? 'null';
  switch (first) {
    case 'string':
      return { msg: 'Input should be a valid string', type: 'string_type' };
    case 'integer':
      if (typeof input === 'number' && Number.isFinite(input)) {
        return {
          msg: 'Input should be a valid integer, got a number with a fractional part',
          type: 'int_from_float',
        };
      }
      return { msg: 'Input should be a valid integer', type: 'int_type' };
    case 'number':
      return { msg: 'Input should be a valid number', type: 'float_type' };
    case 'boolean':
      return { msg: 'Input should be a valid boolean', type: 'bool_type' };
    case 'array':
      return { msg: 'Input should be a valid list', type: 'list_type' };
    case 'object':
      return { msg: 'Input should be a valid dictionary', type: 'dict_type' };
    default:
      return { msg: 'Input should be None', type: 'none_required' };
  }
}

function formatIssue(format: string): { msg: string; type: string } {
  switch (format) {
    case 'date-time':
      return {
        msg: 'Input should be a valid datetime (ISO 8601, e.g. 2024-01-31T12:00:00Z or 2024-01-31)',
        type: 'datetime_parsing',
      };
    case 'date':
      return { msg: 'Input should be a valid date (YYYY-MM-DD)', type: 'date_parsing' };
    case 'email':
      return { msg: 'value is not a valid email address', type: 'value_error' };
    case 'uri':
    case 'url':
      return { msg: 'Input should be a valid URL', type: 'url_parsing' };
    case 'uuid':
      return { msg: 'Input should be a valid UUID', type: 'uuid_parsing' };
    default:
      return {
        msg: `Value error, the value does not match the format '${format}'`,
        type: 'value_error',
      };
  }
}

/** Parses a path or query parameter's text by its schema's type; validates the result. */
export function checkParameter(
  validators: SpecValidators,
  param: ParameterInfo,
  raw: string | undefined,
): { value: unknown; issues: ValidationIssue[] } {
  const loc: Loc = [param.in, param.name];
  if (raw === undefined) {
    if (!param.required) return { value: undefined, issues: [] };
    return { value: undefined, issues: [{ loc, msg: 'Field required', type: 'missing' }] };
  }
  const types = schemaTypes(validators, param.schema);
  let value: unknown = raw;
  if (types.has('integer') && !types.has('string')) {
    // FastAPI reads a parameter's text as pydantic does (`" 7"`, `"7.0"` and `"1_000"` are integers)
    const n = intFromText(raw);
    if (n === undefined) {
      return {
        value: undefined,
        issues: [
          {
            loc,
            msg: 'Input should be a valid integer, unable to parse string as an integer',
            type: 'int_parsing',
            input: raw,
          },
        ],
      };
    }
    value = n;
  } else if (types.has('number') && !types.has('string')) {
    const n = Number(raw);
    if (raw.trim() === '' || Number.isNaN(n)) {
      return {
        value: undefined,
        issues: [
          {
            loc,
            msg: 'Input should be a valid number, unable to parse string as a number',
            type: 'float_parsing',
            input: raw,
          },
        ],
      };
    }
    value = n;
  } else if (types.has('boolean') && !types.has('string')) {
    const lower = raw.toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(lower)) value = true;
    else if (['false', '0', 'no', 'off'].includes(lower)) value = false;
    else {
      return {
        value: undefined,
        issues: [
          {
            loc,
            msg: 'Input should be a valid boolean, unable to interpret input',
            type: 'bool_parsing',
            input: raw,
          },
        ],
      };
    }
  }
  return { value, issues: validators.check(param.validate, value, loc) };
}

function schemaTypes(validators: SpecValidators, schema: unknown, depth = 0): Set<string> {
  const types = new Set<string>();
  const s = validators.resolve(schema);
  if (!isObject(s) || depth > 8) return types;
  if (typeof s.type === 'string') types.add(s.type);
  if (Array.isArray(s.type)) for (const t of s.type) types.add(String(t));
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const list = s[key];
    if (Array.isArray(list)) {
      for (const sub of list) for (const t of schemaTypes(validators, sub, depth + 1)) types.add(t);
    }
  }
  return types;
}

/**
 * Deepest nesting of arrays and objects accepted in a JSON body. Deployed servers parse bodies
 * with Python's json module, which gives up near 1,000 levels; no real payload comes close, and
 * a bound keeps every later step (storage, masking, serialization) far from the stack limit.
 */
export const MAX_JSON_DEPTH = 512;

/**
 * The path to the first value nested deeper than `MAX_JSON_DEPTH`, or undefined when the value is
 * within the bound. The recursion stops at the bound, so it never nears the stack limit, and it
 * allocates nothing for a value within the bound (this runs on every JSON body).
 */
export function tooDeepPath(value: unknown, depth = 0): Loc | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth >= MAX_JSON_DEPTH) return [];
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const path = tooDeepPath(value[i], depth + 1);
      if (path !== undefined) return [i, ...path];
    }
    return undefined;
  }
  for (const key in value) {
    const path = tooDeepPath((value as Record<string, unknown>)[key], depth + 1);
    if (path !== undefined) return [key, ...path];
  }
  return undefined;
}

/** The 422 issue for a body nested too deep (the location names the top-level fields only). */
export function tooDeepIssue(path: Loc, prefix: Loc): ValidationIssue {
  return {
    loc: [...prefix, ...path.slice(0, 2)],
    msg: `Value error, JSON nested more than ${MAX_JSON_DEPTH} levels deep`,
    type: 'value_error',
  };
}
