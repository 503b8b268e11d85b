// The pair page's verification: the console runs `verifyPair` of @kis/client against the pair
// shown (present, indexed, findable, and visible to this key: the key is its own `as`), with a
// progress bar and Cancel, and shows the report. The last report of each pair (counts, failing
// ids, notes: never a key) is kept in localStorage by base URL and pair, so reopening the pair
// shows it with its time until it is verified again.
import {
  type KisClient,
  VERIFY_CHECKS,
  VERIFY_REASONS,
  type VerifyRun,
  type VerifySummary,
  verifyPair,
} from '@kis/client';
import { byId, clearInvalid, element, markInvalid, setStatus } from './dom.js';

/** Failing ids shown per reason (the stored report keeps what the summary keeps). */
const SHOWN_IDS = 20;
const STORAGE_PREFIX = 'kis-console.verify:';

/** A report as stored: the summary and when it was made. */
interface StoredReport {
  at: string;
  summary: VerifySummary;
}

const REASONS: Record<(typeof VERIFY_REASONS)[number], string> = {
  missing: 'not in the pair',
  unindexed: 'no chunks this key can see',
  hidden: 'hidden from ordinary search',
  unfindable: 'not in the first 10 of admin search',
  'not-visible': 'this key should see it and does not',
  'unexpectedly-visible': 'this key sees it and should not',
  unreadable: 'no document to read',
  'failed-call': 'a check failed after retries',
};

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined; // storage disabled by the browser
  }
}

function cell(text: string): HTMLTableCellElement {
  return element('td', {}, text);
}

export class VerifyPanel {
  private readonly form = byId('verify-form', HTMLFormElement);
  private readonly sampleInput = byId('verify-sample', HTMLInputElement);
  private readonly runButton = byId('verify-run', HTMLButtonElement);
  private readonly cancelButton = byId('verify-cancel', HTMLButtonElement);
  private readonly progress = byId('verify-progress', HTMLProgressElement);
  private readonly status = byId('verify-status', HTMLElement);
  private readonly report = byId('verify-report', HTMLElement);
  private readonly when = byId('verify-when', HTMLElement);
  private readonly checks = byId('verify-checks', HTMLTableElement);
  private readonly failures = byId('verify-failures', HTMLElement);
  private readonly notes = byId('verify-notes', HTMLUListElement);

  private kis: KisClient | undefined;
  private pairId: number | undefined;
  private running: VerifyRun | undefined;
  private abort: AbortController | undefined;

  constructor() {
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.verify();
    });
    this.cancelButton.addEventListener('click', () => {
      this.running?.stop();
      this.abort?.abort();
    });
  }

  setClient(client: KisClient | undefined): void {
    this.kis = client;
    // another server (or none): its reports are others
    this.pairId = undefined;
    this.running?.stop();
    this.runButton.disabled = client === undefined || this.running !== undefined;
  }

  /** The pair shown: its last report, if one was kept. */
  show(pairId: number): void {
    if (this.pairId === pairId) return;
    this.running?.stop();
    this.pairId = pairId;
    const stored = this.load(pairId);
    if (stored === undefined) {
      this.report.hidden = true;
      setStatus(this.status, 'ok', `Pair ${pairId} has not been verified from this console yet.`);
    } else {
      this.render(stored);
      setStatus(this.status, 'ok', `The last report of pair ${pairId}, from ${stored.at}.`);
    }
  }

  private key(pairId: number): string {
    return `${STORAGE_PREFIX}${this.kis?.baseUrl ?? ''}#${pairId}`;
  }

  private load(pairId: number): StoredReport | undefined {
    const text = storage()?.getItem(this.key(pairId));
    if (!text) return undefined;
    try {
      return JSON.parse(text) as StoredReport;
    } catch {
      return undefined;
    }
  }

  private async verify(): Promise<void> {
    const kis = this.kis;
    const pairId = this.pairId;
    if (kis === undefined || pairId === undefined) return;
    clearInvalid(this.sampleInput);
    const text = this.sampleInput.value.trim();
    const sample = Number(text);
    if (text !== '' && (!Number.isInteger(sample) || sample < 1)) {
      markInvalid(this.sampleInput);
      setStatus(this.status, 'error', 'Sample: expected a whole number of documents, at least 1');
      return;
    }
    this.abort = new AbortController();
    this.runButton.disabled = true;
    this.cancelButton.disabled = false;
    this.progress.hidden = false;
    this.progress.removeAttribute('value');
    setStatus(this.status, 'busy', `Verifying the documents of pair ${pairId}…`);
    try {
      // this key is its own `as`: visible compares what it sees with what its pairs grant it
      const run = await verifyPair(kis, {
        ccPairId: pairId,
        as: kis,
        signal: this.abort.signal,
        ...(text === '' ? {} : { sample }),
        onProgress: (p) => {
          if (p.total === undefined) return;
          this.progress.max = Math.max(1, p.total);
          this.progress.value = p.done;
          setStatus(
            this.status,
            'busy',
            `Verifying pair ${pairId}: ${p.done} of ${p.total} document(s)…`,
          );
        },
      });
      this.running = run;
      const summary = await run.done();
      const stored: StoredReport = { at: new Date().toISOString(), summary };
      storage()?.setItem(this.key(pairId), JSON.stringify(stored));
      this.render(stored);
      const failed = Object.values(summary.failures).reduce((n, f) => n + (f?.count ?? 0), 0);
      setStatus(
        this.status,
        summary.ok ? 'ok' : 'error',
        summary.stopped !== undefined
          ? `Stopped after ${summary.checked} document(s).`
          : summary.ok
            ? `All ${summary.checked} document(s) of pair ${pairId} passed.`
            : `${failed} document(s) of pair ${pairId} failed a check (of ${summary.checked}).`,
      );
    } catch (error) {
      setStatus(this.status, 'error', error instanceof Error ? error.message : String(error));
    } finally {
      this.running = undefined;
      this.progress.hidden = true;
      this.cancelButton.disabled = true;
      this.runButton.disabled = this.kis === undefined;
    }
  }

  private render({ at, summary }: StoredReport): void {
    const sample = summary.sampleSeed === undefined ? '' : ` (a sample of ${summary.total})`;
    this.when.textContent = `Verified ${at}: ${summary.checked} document(s)${sample} in ${Math.round(summary.elapsedMs)} ms.`;
    this.checks.tBodies[0]?.replaceChildren(
      ...VERIFY_CHECKS.map((check) => {
        const c = summary.checks[check];
        const name = check === 'visible' ? 'visible to this key' : check;
        return element(
          'tr',
          { 'data-check': check },
          element('th', { scope: 'row' }, name),
          cell(String(c.passed)),
          cell(String(c.failed)),
          cell(String(c.skipped)),
        );
      }),
    );
    const items = VERIFY_REASONS.flatMap((reason) => {
      const f = summary.failures[reason];
      if (f === undefined) return [];
      const more = f.count - Math.min(f.ids.length, SHOWN_IDS);
      return [
        element('dt', { 'data-reason': reason }, `${reason} (${f.count}): ${REASONS[reason]}`),
        element(
          'dd',
          { 'data-reason': reason },
          f.ids.slice(0, SHOWN_IDS).join(' ') + (more > 0 ? ` … and ${more} more` : ''),
        ),
      ];
    });
    this.failures.replaceChildren(
      ...(items.length > 0
        ? items
        : [element('dt', {}, 'Failing documents'), element('dd', {}, 'None.')]),
    );
    const switching = summary.modelSwitch;
    const notes = [
      ...(switching === null
        ? []
        : [
            switching.needsRepush
              ? `A legacy model switch to ${switching.modelName} is in progress: its new index gets none of this pair's pushed documents unless they are pushed again (kis verify PATH --repair).`
              : `A model switch to ${switching.modelName} is in progress; these checks read the current index.`,
          ]),
      ...summary.notes,
    ];
    this.notes.replaceChildren(...notes.map((note) => element('li', {}, note)));
    this.notes.hidden = notes.length === 0;
    this.report.hidden = false;
  }
}
