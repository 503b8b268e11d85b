/**
 * One attempt at a document, hedged when it is late (hedge.ts): copies of the same request (an
 * upsert by id) go out until one answers; the first answer wins and the other copies are cut.
 */
import type { IngestAttempt } from '../../ingest.js';
import type { CallControl } from '../../request-options.js';
import type { IngestionRequestInput, IngestionResult } from '../../types.js';
import type { AbortRegistry } from '../abort.js';
import type { CallContext } from '../call.js';
import { ingest } from '../resources/ingestion.js';
import { type Hedger, ownRegistry } from './hedge.js';
import { reportFailure } from './report-attempt.js';

type Copy = ReturnType<typeof ownRegistry>;

const unwatched = (): void => undefined;

export class HedgedAttempt {
  constructor(
    private readonly ctx: CallContext,
    /** The run's registry of requests on the wire: each copy registers under it. */
    private readonly registry: AbortRegistry,
    private readonly hedger: Hedger,
    /** False: one copy only (`hedge: false`, or a request gate that a copy would bypass). */
    private readonly hedged: boolean,
    /** `onAttempt`, told of every copy's end. */
    private readonly report: ((attempt: IngestAttempt) => void) | undefined,
  ) {}

  /** The first copy's answer or failure, or a hedge's answer (a failed hedge leaves it open). */
  send(
    body: IngestionRequestInput,
    documentId: string,
    control: CallControl,
  ): Promise<IngestionResult> {
    const copies: Copy[] = [];
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (winner: Copy, finish: () => void) => {
        if (settled) return;
        settled = true;
        unwatch();
        for (const copy of copies) if (copy !== winner) copy.abort();
        finish();
      };
      const unwatch = this.hedged
        ? this.hedger.watch((rearm) => {
            const hedge = this.copy(copies, body, documentId, control);
            hedge.answer.then((result) => settle(hedge.copy, () => resolve(result)), rearm);
          })
        : unwatched;
      const first = this.copy(copies, body, documentId, control);
      first.answer.then(
        (result) => settle(first.copy, () => resolve(result)),
        (error: unknown) => settle(first.copy, () => reject(error)),
      );
    });
  }

  /**
   * One copy on the wire, cut alone through a registry of its own; its own answer time feeds the
   * hedge bar (a hedge's wait must not raise it).
   */
  private copy(
    copies: Copy[],
    body: IngestionRequestInput,
    documentId: string,
    control: CallControl,
  ): { copy: Copy; answer: Promise<IngestionResult> } {
    const copy = ownRegistry(this.registry);
    copies.push(copy);
    const sentAt = performance.now();
    const answer = ingest(this.ctx, body, { ...control, registry: copy.registry });
    const report = this.report;
    return {
      copy,
      answer: answer.then(
        (result) => {
          const ms = performance.now() - sentAt;
          this.hedger.record(ms);
          report?.({ documentId, status: 200, ms });
          return result;
        },
        (error: unknown) => {
          if (report) reportFailure(report, documentId, error, performance.now() - sentAt);
          throw error;
        },
      ),
    };
  }
}
