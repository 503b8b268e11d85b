/**
 * The server's release as a run reads it: asked with the run's first send (answered while that
 * document is on the wire), needed to read `already_existed` (ingestion-outcome.ts). A release
 * that cannot be read counts as the newest, said once.
 */
import type { LevelLogger } from '../../logging.js';
import type { CallContext } from '../call.js';
import { type IngestionOutcome, ingestionOutcome } from '../ingestion-outcome.js';
import { errorOf } from './error-of.js';

export class RunRelease {
  private asked: Promise<string | undefined> | undefined;
  /** The answer once it came: read without an await (one per document is measurable at 0 ms). */
  private known: { version: string | undefined } | undefined;
  private readonly log: LevelLogger;
  private readonly release: CallContext['release'];

  constructor(ctx: CallContext) {
    this.log = ctx.log;
    this.release = ctx.release;
  }

  /** Starts the question once; later calls do nothing. */
  ask(): void {
    this.asked ??= this.release().then(
      (version) => {
        this.known = { version };
        return version;
      },
      (err: unknown) => {
        const why = errorOf(err).message;
        this.log.log(
          'warn',
          `ingestMany: the server's release could not be read (${why}); already_existed is read as current releases mean it`,
        );
        this.known = { version: undefined };
        return undefined;
      },
    );
  }

  /**
   * `created` or `updated` from `already_existed`, read as the server's release means it: at once
   * when the release is known, else once it is.
   */
  outcome(alreadyExisted: boolean): IngestionOutcome | Promise<IngestionOutcome> {
    if (this.known !== undefined) return ingestionOutcome(alreadyExisted, this.known.version);
    this.ask();
    return (this.asked as Promise<string | undefined>).then((version) =>
      ingestionOutcome(alreadyExisted, version),
    );
  }
}
