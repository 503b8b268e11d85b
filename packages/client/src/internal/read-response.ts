/**
 * The `Response` the transport hands to openapi-fetch: a whole implementation of the `Response`
 * interface over an answer already read (the transport reads every body under the attempt's
 * time-out, so a stalled body is retried like any failed attempt). `text()` and `json()` decode
 * the bytes directly, where a standard Response would go through a web stream (tens of
 * microseconds and a few kilobytes a call, which bulk ingestion pays per document); `body`,
 * `formData()` and the like build a standard Response on demand.
 */
import { isNullBodyStatus } from './http.js';

const utf8 = new TextDecoder();

export interface ReadResponseInit {
  status: number;
  statusText: string;
  headers: Headers | [string, string][];
  /** The URL answered, after redirects, when the sender knows it. */
  url?: string | undefined;
}

export class ReadResponse implements Response {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  readonly url: string;
  readonly redirected = false;
  readonly type: ResponseType = 'basic';
  readonly #bytes: Uint8Array<ArrayBuffer> | null;
  #used = false;

  constructor(bytes: Uint8Array<ArrayBuffer> | null, init: ReadResponseInit) {
    this.status = init.status;
    this.statusText = init.statusText;
    this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
    this.url = init.url ?? '';
    this.#bytes = isNullBodyStatus(init.status) ? null : bytes;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  get bodyUsed(): boolean {
    return this.#used;
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

  get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.#bytes === null ? null : this.#standard().body;
  }

  async text(): Promise<string> {
    return utf8.decode(this.#take());
  }

  async json(): Promise<unknown> {
    return JSON.parse(utf8.decode(this.#take()));
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return this.#take().slice().buffer;
  }

  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#take().slice();
  }

  async blob(): Promise<Blob> {
    return new Blob([this.#take()], { type: this.headers.get('content-type') ?? '' });
  }

  async formData(): Promise<FormData> {
    this.#take();
    return this.#standard().formData();
  }

  clone(): ReadResponse {
    if (this.#used) throw new TypeError('Response.clone: Body has already been consumed.');
    return new ReadResponse(this.#bytes, {
      status: this.status,
      statusText: this.statusText,
      headers: new Headers(this.headers),
      url: this.url,
    });
  }
}
