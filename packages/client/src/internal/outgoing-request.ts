/**
 * The `Request` the client gives openapi-fetch (its documented `Request` option): a whole
 * implementation of the `Request` interface that keeps the body, headers and signal as given,
 * for the transport to send as they are. A standard Request parses them into web streams and ties
 * a signal of its own to the caller's (about 4 KB and several microseconds a call, which bulk
 * ingestion pays per document); here whatever reads the request like one (a middleware) gets
 * a standard Request built on demand.
 */

type RequestInput = ConstructorParameters<typeof Request>[0];

export class OutgoingRequest implements Request {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  /** The body as the caller gave it (a JSON string from openapi-fetch, a form, bytes…). */
  readonly sentBody: NonNullable<RequestInit['body']> | null;
  /** The caller's signal, if any. */
  readonly givenSignal: AbortSignal | null;
  readonly #init: RequestInit;
  #standard: Request | undefined;

  constructor(input: RequestInput, init: RequestInit = {}) {
    this.url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    this.method = (init.method ?? 'GET').toUpperCase();
    this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
    this.sentBody = init.body ?? null;
    this.givenSignal = init.signal ?? null;
    this.#init = init;
  }

  /** The same request as a standard Request, made on first use. */
  #asStandard(): Request {
    this.#standard ??= new Request(this.url, {
      ...this.#init,
      method: this.method,
      headers: this.headers,
      body: this.sentBody,
    });
    return this.#standard;
  }

  get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.sentBody === null ? null : this.#asStandard().body;
  }
  get bodyUsed(): boolean {
    return this.#standard?.bodyUsed ?? false;
  }
  get signal(): AbortSignal {
    return this.givenSignal ?? this.#asStandard().signal;
  }
  get cache(): RequestCache {
    return this.#init.cache ?? 'default';
  }
  get credentials(): RequestCredentials {
    return this.#init.credentials ?? 'same-origin';
  }
  get destination(): RequestDestination {
    return '';
  }
  get integrity(): string {
    return this.#init.integrity ?? '';
  }
  get keepalive(): boolean {
    return this.#init.keepalive ?? false;
  }
  get mode(): RequestMode {
    return this.#init.mode ?? 'cors';
  }
  get redirect(): RequestRedirect {
    return this.#init.redirect ?? 'follow';
  }
  get referrer(): string {
    return this.#asStandard().referrer;
  }
  get referrerPolicy(): ReferrerPolicy {
    return this.#init.referrerPolicy ?? '';
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return this.#asStandard().arrayBuffer();
  }
  blob(): Promise<Blob> {
    return this.#asStandard().blob();
  }
  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return new Uint8Array(await this.#asStandard().arrayBuffer());
  }
  formData(): Promise<FormData> {
    return this.#asStandard().formData();
  }
  json(): Promise<unknown> {
    return this.#asStandard().json();
  }
  text(): Promise<string> {
    return this.#asStandard().text();
  }
  clone(): OutgoingRequest {
    return new OutgoingRequest(this.url, {
      ...this.#init,
      method: this.method,
      headers: new Headers(this.headers),
      body: this.sentBody,
      signal: this.givenSignal,
    });
  }
}
