/**
 * The `Request` class the client gives openapi-fetch (its documented `Request` option). It keeps
 * the body and signal as given, for the transport to send as they are: a standard Request turns
 * its body into a web stream (read back per attempt) and ties its signal to the caller's with a
 * listener of its own, which bulk ingestion would pay per document. Everything a Request offers
 * still works, for middleware that reads it.
 */

export class OutgoingRequest extends Request {
  /** The body as the caller gave it (a JSON string from openapi-fetch, a form, bytes…). */
  readonly sentBody: NonNullable<RequestInit['body']> | null;
  /** The caller's signal, if any (the request's own `signal` is not tied to it). */
  readonly givenSignal: AbortSignal | null;

  constructor(input: ConstructorParameters<typeof Request>[0], init: RequestInit = {}) {
    const { body = null, signal = null, ...rest } = init;
    super(input, rest);
    this.sentBody = body;
    this.givenSignal = signal;
  }

  /** The body as a standard Request would carry it. */
  #standard(): Request {
    return new Request(this.url, {
      method: this.method,
      headers: this.headers,
      body: this.sentBody,
    });
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.sentBody === null ? null : this.#standard().body;
  }

  override text(): Promise<string> {
    return this.#standard().text();
  }

  override json(): Promise<unknown> {
    return this.#standard().json();
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#standard().arrayBuffer();
  }

  override blob(): Promise<Blob> {
    return this.#standard().blob();
  }

  override formData(): Promise<FormData> {
    return this.#standard().formData();
  }

  override clone(): OutgoingRequest {
    return new OutgoingRequest(this.url, {
      method: this.method,
      headers: this.headers,
      body: this.sentBody,
      signal: this.givenSignal,
    });
  }
}
