/** SHA-256 (hex) with node:crypto: at once, without Web Crypto's promise and buffer copies. */
import { createHash } from 'node:crypto';
import type { Sha256 } from '../journal.js';

export const nodeSha256: Sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');
