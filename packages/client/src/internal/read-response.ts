/**
 * The `Response` the transport hands to openapi-fetch: an answer already read whole (the
 * transport reads every body under the attempt's time-out, so a stalled body is retried like any
 * failed attempt). Its body is kept as bytes and read from them: `text()` and `json()` decode
 * directly, where a standard Response would go through a web stream (tens of microseconds per
 * call, which bulk ingestion pays per document); `body` and `formData()` build one on demand.
 */
import { isNullBodyStatus } from './http.js';

const utf8 = new TextDecoder();

export class ReadResponse extends Response {
  readonly #bytes: Uint8Array<ArrayBuffer> | null;
  #used = false;

  constructor(bytes: Uint8Array<ArrayBuffer> | null, init: ResponseInit) {
    super(null, init);
    this.#bytes = isNullBodyStatus(init.status ?? 200) ? null : bytes;
  }

  /** The body as a standard Response would carry it. */
  #standard(): Response {
    return new Response(this.#bytes, { status: this.status, headers: this.headers });
  }

  #take(): Uint8Array<ArrayBuffer> {
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    return this.#bytes ?? new Uint8Array(0);
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.#bytes === null ? null : this.#standard().body;
  }

  override get bodyUsed(): boolean {
    return this.#used;
  }

  override async text(): Promise<string> {
    return utf8.decode(this.#take());
  }

  override async json(): Promise<unknown> {
    return JSON.parse(utf8.decode(this.#take()));
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    return this.#take().slice().buffer;
  }

  override async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#take().slice();
  }

  override async blob(): Promise<Blob> {
    return new Blob([this.#take()], { type: this.headers.get('content-type') ?? '' });
  }

  override async formData(): Promise<FormData> {
    this.#take();
    return this.#standard().formData();
  }

  override clone(): ReadResponse {
    if (this.#used) throw new TypeError('Response.clone: Body has already been consumed.');
    return new ReadResponse(this.#bytes, {
      status: this.status,
      statusText: this.statusText,
      headers: this.headers,
    });
  }
}
