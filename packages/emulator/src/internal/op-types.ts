// The handlers' types, read from the generated `operations` of @kis/types: each handler gets the
// parameters and body its operation declares and must answer the operation's 200 body. A spec
// change that a handler no longer fits fails the emulator's type check.
import type { Answer } from '@kis/rules';
import type { components, operations } from '@kis/types';
import type { Caller } from './access.js';

export type OperationId = keyof operations;
export type Schemas = components['schemas'];

type Op<K extends OperationId> = operations[K];

/** The request body of media type `M`: `undefined` when the operation has none, optional when optional. */
type Body<K extends OperationId, M extends string> = [NonNullable<Op<K>['requestBody']>] extends [
  never,
]
  ? undefined
  : NonNullable<Op<K>['requestBody']> extends { content: { [P in M]: infer B } }
    ? undefined extends Op<K>['requestBody']
      ? B | undefined
      : B
    : undefined;

type ParamsIn<K extends OperationId, L extends 'path' | 'query'> = [
  NonNullable<Op<K>['parameters'][L]>,
] extends [never]
  ? Record<never, never>
  : NonNullable<Op<K>['parameters'][L]>;

/** The 200 JSON body of an operation. */
export type Success<K extends OperationId> = Op<K>['responses'] extends {
  200: { content: { 'application/json': infer R } };
}
  ? R
  : never;

export interface OpInput<K extends OperationId> {
  /** Path and query parameters, parsed and validated by their schemas. */
  params: ParamsIn<K, 'path'> & ParamsIn<K, 'query'>;
  /** The JSON body (validated, and coerced where the profile reads bodies laxly). */
  body: Body<K, 'application/json'>;
  /** The text fields of a multipart body (validated; file parts appear as their file names). */
  fields: Body<K, 'multipart/form-data'>;
  /** The multipart form itself, for its file parts. */
  form: FormData | undefined;
  /** Raw (still percent-encoded) path parameters, as they appeared in the URL. */
  rawParams: Record<string, string>;
  /** The key the request came with; undefined for an operation that needs none. */
  caller: Caller | undefined;
}

export interface OpResult<K extends OperationId> {
  status: 200;
  body: Success<K>;
}

/**
 * A success answer of the rule book (`LIFECYCLE_ANSWERS`) as the result of operation `K`. The
 * rule book writes answers untyped; its tests check each against the spec's examples, so the body
 * is the operation's 200 body.
 */
export function ruleBookResult<K extends OperationId>(answer: Answer): OpResult<K> {
  if (answer.status !== 200) throw new Error(`not a success answer: HTTP ${answer.status}`);
  return { status: 200, body: answer.body as Success<K> };
}

/** One handler per operation of the spec; errors are thrown (`errors.ts`). */
export type Handlers = {
  [K in OperationId]: (input: OpInput<K>) => OpResult<K> | Promise<OpResult<K>>;
};

/** A handler as the HTTP layer calls it, after the request was checked against the spec. */
export type CheckedHandler = (input: {
  params: Record<string, unknown>;
  body: unknown;
  fields: unknown;
  form: FormData | undefined;
  rawParams: Record<string, string>;
  caller: Caller | undefined;
}) => { status: number; body: unknown } | Promise<{ status: number; body: unknown }>;

/**
 * The handler of `operationId`, as the HTTP layer calls it. The request was validated against
 * the operation's schemas, the same schemas its types were generated from, so the typed input
 * the handler declares is what it receives.
 */
export function checkedHandler(
  handlers: Handlers,
  operationId: string,
): CheckedHandler | undefined {
  const table = handlers as unknown as Record<string, CheckedHandler | undefined>;
  return Object.hasOwn(table, operationId) ? table[operationId] : undefined;
}
