// What the tests of the bundled document share: the document (dist/openapi.json), its operations
// found by id, and a check of a value against one of its schemas (dates checked as the rule book
// checks them).
import { readFileSync } from 'node:fs';
import { isDateTime } from '@kis/rules';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

// biome-ignore lint/suspicious/noExplicitAny: the tests walk an arbitrary JSON document
export type Json = Record<string, any>;

export const spec: Json = JSON.parse(
  readFileSync(new URL('../dist/openapi.json', import.meta.url), 'utf8'),
);
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
export const operations = Object.entries(spec.paths as Json).flatMap(([path, item]) =>
  Object.entries(item as Json)
    .filter(([method]) => METHODS.includes(method))
    .map(([method, o]) => ({ path, method, op: o as Json })),
);
export const byId = (id: string) => {
  const found = operations.find((o) => o.op.operationId === id);
  if (!found) throw new Error(`no operation ${id}`);
  return found;
};

let ajv: Ajv2020 | undefined;
/** Whether `value` is valid against the schema `schemaName` (compiled on first use). */
export function valid(schemaName: string, value: unknown): boolean {
  if (!ajv) {
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addFormat('date-time', { type: 'string', validate: isDateTime });
    ajv.addSchema(spec, 'spec');
  }
  const fn = ajv.getSchema(`spec#/components/schemas/${schemaName}`);
  if (!fn) throw new Error(`no schema ${schemaName}`);
  return fn(value) as boolean;
}
