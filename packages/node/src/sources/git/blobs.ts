/**
 * Blob contents through one long-lived `git cat-file --batch`: a request is a blob id on its
 * input, an answer its header and bytes on its output, in order. Loads ask concurrently; answers
 * are matched to requests first in, first out, each handed over as soon as its bytes are in.
 * Items load after their source has ended, so the child stays; while no read waits it does not
 * keep the process alive, and it ends with its input.
 */
import type { ChildProcess } from 'node:child_process';
import type { Repository } from './repo.js';
import { gitProcess, processFailure } from './run-git.js';

interface Waiting {
  blob: string;
  resolve(bytes: Buffer): void;
  reject(error: Error): void;
}

export class BlobReader {
  readonly #repo: Repository;
  #child: ChildProcess | undefined;
  readonly #waiting: Waiting[] = [];
  /** Output not yet handed over, joined only when an answer is complete (large blobs: O(n)). */
  #chunks: Buffer[] = [];
  #length = 0;
  /** Bytes of the answer being read (header read), or -1 while waiting for a header. */
  #expect = -1;
  #stderr = '';

  constructor(repo: Repository) {
    this.#repo = repo;
  }

  /** The bytes of blob `blob`. */
  read(blob: string): Promise<Buffer> {
    const child = this.#start();
    return new Promise<Buffer>((resolve, reject) => {
      this.#waiting.push({ blob, resolve, reject });
      this.#hold();
      child.stdin?.write(`${blob}\n`);
    });
  }

  #start(): ChildProcess {
    if (this.#child) return this.#child;
    const child = gitProcess(['cat-file', '--batch'], this.#repo.dir);
    this.#child = child;
    child.unref();
    child.stdout?.on('data', (chunk: Buffer) => this.#take(chunk));
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      this.#stderr = (this.#stderr + d).slice(-2000);
    });
    const fail = (error?: unknown) => {
      const failure = processFailure(error, this.#stderr || 'git cat-file stopped');
      for (const w of this.#waiting.splice(0)) w.reject(failure);
      this.#child = undefined;
      this.#chunks = [];
      this.#length = 0;
      this.#expect = -1;
    };
    child.once('error', fail);
    child.once('close', () => fail());
    child.stdin?.on('error', () => undefined); // the close above says why
    return child;
  }

  #take(chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#length += chunk.length;
    for (;;) {
      if (this.#expect < 0) {
        const buffer = this.#joined();
        const nl = buffer.indexOf(0x0a);
        if (nl === -1) return;
        const header = buffer.toString('utf8', 0, nl);
        this.#keep(buffer.subarray(nl + 1));
        const parts = header.split(' ');
        if (parts[1] === 'missing' || parts.length < 3) {
          this.#waiting.shift()?.reject(new Error(`blob ${parts[0]} is not in the repository`));
          this.#hold();
          continue;
        }
        this.#expect = Number(parts[2]);
      }
      // the bytes and their closing newline
      if (this.#length < this.#expect + 1) return;
      const buffer = this.#joined();
      const bytes = Buffer.from(buffer.subarray(0, this.#expect));
      this.#keep(buffer.subarray(this.#expect + 1));
      this.#expect = -1;
      this.#waiting.shift()?.resolve(bytes);
      this.#hold();
    }
  }

  /** Keeps the process alive while a read waits, not otherwise. */
  #hold(): void {
    const child = this.#child;
    if (!child) return;
    for (const stream of [child.stdin, child.stdout, child.stderr] as (
      | (NodeJS.ReadableStream & { ref?(): void; unref?(): void })
      | null
    )[]) {
      if (this.#waiting.length > 0) stream?.ref?.();
      else stream?.unref?.();
    }
  }

  #joined(): Buffer {
    const joined =
      this.#chunks.length === 1 ? (this.#chunks[0] as Buffer) : Buffer.concat(this.#chunks);
    this.#chunks = [joined];
    return joined;
  }

  #keep(rest: Buffer): void {
    this.#chunks = rest.length === 0 ? [] : [rest];
    this.#length = rest.length;
  }

  /** Ends the child (reads in progress fail). */
  close(): void {
    const child = this.#child;
    this.#child = undefined;
    child?.stdin?.end();
  }
}
