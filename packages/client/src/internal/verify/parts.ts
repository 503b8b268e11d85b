/**
 * What `verifyPair` hands the engine instead of the engine importing it: code imported from both
 * `import '@kis/client'` and this lazy chunk would be split out of the eager chunk into one of its
 * own, which costs every app that never verifies (scripts/size.mjs). Types only here.
 */
import type { VerifyCheck } from '../../verify-types.js';
import type { prepareIngestion } from '../bulk/prepare.js';
import type { isItem } from '../bulk/source.js';

export interface EngineParts {
  prepareIngestion: typeof prepareIngestion;
  isItem: typeof isItem;
  /** Every check, in report order (`VERIFY_CHECKS`). */
  checks: readonly VerifyCheck[];
}
