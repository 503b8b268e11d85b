import type { KisError } from '../errors.js';

/**
 * What the transport and the senders exchange: a request ready for the wire, and an answer read
 * whole. A sender puts one request on the wire (fetch in a browser, undici under Node); everything
 * else (auth, time-outs, retries, errors) is the transport's.
 */

/** What a request body may be: as fetch takes it, but a stream (a retry sends it again). */
export type SentBody = string | Uint8Array<ArrayBuffer> | Blob | FormData | URLSearchParams;

/** A request as a sender gets it, its headers a plain record. */
export interface SendInit {
  method: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** Sent as fetch would encode it (forms, blobs…), the same on every attempt. */
  body: SentBody | null;
}

/** One answer, all of it arrived and decoded (content codings undone). */
export interface Received {
  status: number;
  statusText: string;
  /** Name and value pairs (a repeated header once per value), or a `Headers`. */
  headers: Headers | [string, string][];
  /** The body's bytes; null for an answer without a body. */
  body: Uint8Array<ArrayBuffer> | null;
}

/** One request on the wire: its whole answer, and how to stop it. */
export interface Sent {
  /** Resolves once the whole answer has arrived; rejects on a connection failure or an abort. */
  received: Promise<Received>;
  /**
   * Stops the request at any point, the reading of its answer included: `received` rejects with
   * `reason`. Does nothing once the answer is in.
   */
  abort(reason: Error): void;
}

/**
 * Puts one request on the wire, following redirects (dropping credentials when one leaves the
 * origin) and reading the whole answer.
 */
export type Sender = (url: string, init: SendInit) => Sent;

/** Statuses whose answers have no body. */
export const isNullBodyStatus = (status: number): boolean =>
  status === 204 || status === 205 || status === 304;

/** What an attempt ended with: an answer, or the error of a failure without one. */
export interface Attempted {
  response?: Response;
  error?: KisError;
  kind?: 'connection' | 'timeout' | 'abort';
  /** The request surely never left (connection refused…): safe to retry even an unsafe call. */
  preSend?: boolean;
}

/** An answer as openapi-fetch resolves it. */
export interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Pick<Response, 'status' | 'statusText' | 'headers'>;
}
