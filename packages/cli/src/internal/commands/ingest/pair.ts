/** The pair `kis ingest` sends to, local or queued alike. */
import { ingestionPairId } from '@kis/rules';
import type { Output } from '../../output.js';

/**
 * The pair a run sends to: `--cc-pair`, else the one the server would pick (pair 1), said on
 * stderr and named in every request, so the run keeps that pair's journal as for any pair.
 */
export function sendingPair(out: Output, given: number | undefined): number {
  const pair = ingestionPairId(given);
  if (given !== pair) {
    const flag = given === undefined ? 'no --cc-pair' : `--cc-pair ${given}`;
    out.info(
      `${flag}: documents go to pair ${pair}, the server's default ingestion pair (give --cc-pair N for another)`,
    );
  }
  return pair;
}
