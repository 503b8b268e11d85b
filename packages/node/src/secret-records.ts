/**
 * `SecretRecords` in a JSON file (Node only), for `kis.plan`/`kis.apply`: per credential id, the
 * keyed fingerprints of the values sent, never the values. Each change is written to a temporary
 * file renamed over the old one (mode 0600), so a kill leaves the old or the new file whole.
 *
 * Format: `{"kis":"apply-secrets","v":1,"salt":"…","credentials":{"3":{"jira_api_token":"…"}}}`.
 */
import type { SecretRecords } from './declarative/types.js';
import { readRecordFile, writeRecordFile } from './record-file.js';

interface Content {
  kis: 'apply-secrets';
  v: 1;
  salt: string;
  credentials: Record<string, Record<string, string>>;
}

function read(path: string): Content | undefined {
  const content = readRecordFile(path) as Partial<Content> | undefined;
  if (content === undefined) return undefined;
  if (content.kis !== 'apply-secrets' || content.v !== 1 || typeof content.salt !== 'string') {
    throw new Error(`${path}: not a kis apply secret record file (v1)`);
  }
  return { kis: 'apply-secrets', v: 1, salt: content.salt, credentials: content.credentials ?? {} };
}

export class FileSecretRecords implements SecretRecords {
  readonly path: string;
  private readonly content: Content;

  constructor(path: string) {
    this.path = path;
    this.content = read(path) ?? {
      kis: 'apply-secrets',
      v: 1,
      salt: Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex'),
      credentials: {},
    };
  }

  salt(): string {
    return this.content.salt;
  }

  get(credentialId: number): Record<string, string> | undefined {
    return this.content.credentials[String(credentialId)];
  }

  set(credentialId: number, fingerprints: Record<string, string>): void {
    this.content.credentials[String(credentialId)] = fingerprints;
    this.save();
  }

  delete(credentialId: number): void {
    if (!(String(credentialId) in this.content.credentials)) return;
    delete this.content.credentials[String(credentialId)];
    this.save();
  }

  private save(): void {
    writeRecordFile(this.path, this.content);
  }
}
