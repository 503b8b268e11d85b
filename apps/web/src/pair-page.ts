// The pair page: one connector/credential pair with its status, who sees its documents
// (pair-access.ts), its latest index attempts and unresolved errors, buttons to run it, pause or
// resume it and delete it (after a confirmation), and the verification of its documents
// (verify-panel.ts). It follows the pair while an attempt runs or its deletion goes on.
// Everything goes through @kis/client; what a status means comes from the rule book (@kis/rules).
import {
  type CcPairFullInfo,
  type IndexAttempt,
  type IndexingError,
  type KisClient,
  NotFoundError,
  PermissionDeniedError,
} from '@kis/client';
import { denialOf, isAttemptRunning, isIndexable, permissionFor } from '@kis/rules';
import { byId, clearInvalid, element, markInvalid, setStatus } from './dom.js';
import { type PairAccess, pairAccess } from './pair-access.js';
import { VerifyPanel } from './verify-panel.js';

const ATTEMPTS_SHOWN = 10;
const ERRORS_SHOWN = 20;
/** Between two reads while something runs on the server. */
const FOLLOW_MS = 1000;
/** Reads after a run, before an attempt shows up, that are waited for (a worker takes it). */
const RUN_WAIT_READS = 30;

interface Snapshot {
  pair: CcPairFullInfo;
  attempts: IndexAttempt[];
  errors: IndexingError[];
  /** Read once per pair opened: access and groups change only through a group's update. */
  access: PairAccess;
}

async function first<T>(items: AsyncIterable<T>, count: number): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) {
    out.push(item);
    if (out.length >= count) break;
  }
  return out;
}

/** An error in words; a refused key names the permission the operation needs (main line). */
function describe(error: unknown, operationId: string): string {
  if (PermissionDeniedError.isInstance(error)) {
    const denial = denialOf(error.status, error.body);
    const needed = permissionFor(operationId)?.permission;
    if (denial === 'missing-permission' && needed !== undefined) {
      return `This key lacks ${needed}, which ${operationId} needs: add it to a group that grants ${needed}.`;
    }
    if (denial === 'not-curator-or-admin' || denial === 'limited-key') {
      return "This key's role may not do this: use a key of role admin.";
    }
  }
  return error instanceof Error ? error.message : String(error);
}

function cell(text: string): HTMLTableCellElement {
  return element('td', {}, text);
}

export class PairPage {
  private readonly form = byId('pair-form', HTMLFormElement);
  private readonly idInput = byId('pair-id', HTMLInputElement);
  private readonly loadButton = byId('pair-load', HTMLButtonElement);
  private readonly status = byId('pair-status', HTMLElement);
  private readonly view = byId('pair-view', HTMLElement);
  private readonly detail = byId('pair-detail', HTMLElement);
  private readonly runButton = byId('pair-run', HTMLButtonElement);
  private readonly toggleButton = byId('pair-toggle', HTMLButtonElement);
  private readonly deleteButton = byId('pair-delete', HTMLButtonElement);
  private readonly dialog = byId('pair-delete-dialog', HTMLDialogElement);
  private readonly dialogText = byId('pair-delete-text', HTMLElement);
  private readonly attemptsTable = byId('pair-attempts', HTMLTableElement);
  private readonly errorsTable = byId('pair-errors', HTMLTableElement);
  private readonly errorsNone = byId('pair-errors-none', HTMLElement);
  private readonly verifyPanel = new VerifyPanel();

  private kis: KisClient | undefined;
  private shown: Snapshot | undefined;
  private access: { id: number; access: PairAccess } | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** After a run: the newest attempt id when it was asked for, and reads left to wait. */
  private runAfter: { id: number | undefined; reads: number } | undefined;
  private deleting = false;

  constructor() {
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.open();
    });
    this.runButton.addEventListener('click', () => void this.run());
    this.toggleButton.addEventListener('click', () => void this.toggle());
    this.deleteButton.addEventListener('click', () => this.askDelete());
    this.dialog.addEventListener('close', () => {
      if (this.dialog.returnValue === 'delete') void this.remove();
      else this.deleteButton.focus();
    });
  }

  /** The client to use (undefined: disconnected, the page is emptied). */
  setClient(client: KisClient | undefined): void {
    this.kis = client;
    this.verifyPanel.setClient(client);
    this.loadButton.disabled = client === undefined;
    if (client === undefined) this.close();
  }

  /** Fills in a pair id (a pair just created). */
  suggest(ccPairId: number): void {
    this.idInput.value = String(ccPairId);
  }

  private close(): void {
    this.stopFollowing();
    this.shown = undefined;
    this.view.hidden = true;
  }

  private stopFollowing(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async open(): Promise<void> {
    clearInvalid(this.idInput);
    const id = Number(this.idInput.value.trim());
    if (this.idInput.value.trim() === '' || !Number.isInteger(id) || id < 0) {
      markInvalid(this.idInput);
      setStatus(this.status, 'error', 'Pair id: expected a whole number');
      return;
    }
    this.close();
    this.access = undefined;
    this.runAfter = undefined;
    this.deleting = false;
    setStatus(this.status, 'busy', `Reading pair ${id}…`);
    await this.refresh(id);
  }

  /** Reads the pair again and shows it; keeps following while something runs. */
  private async refresh(id: number): Promise<void> {
    const kis = this.kis;
    if (kis === undefined) return;
    let snapshot: Snapshot;
    try {
      const pair = await kis.pairs.get(id);
      const attempts = await first(
        kis.pairs.attempts(id, { pageSize: ATTEMPTS_SHOWN }),
        ATTEMPTS_SHOWN,
      );
      const errors = await first(kis.pairs.errors(id, { pageSize: ERRORS_SHOWN }), ERRORS_SHOWN);
      if (this.access?.id !== id) this.access = { id, access: await pairAccess(kis, pair) };
      snapshot = { pair, attempts, errors, access: this.access.access };
    } catch (error) {
      this.close();
      if (NotFoundError.isInstance(error)) {
        setStatus(
          this.status,
          this.deleting ? 'ok' : 'error',
          this.deleting
            ? `Pair ${id} was deleted, with its documents.`
            : `Pair ${id}: no such pair, or not one this key may see.`,
        );
      } else {
        setStatus(this.status, 'error', describe(error, 'getCcPair'));
      }
      return;
    }
    this.render(snapshot);
    this.followIfBusy(snapshot);
  }

  private followIfBusy(s: Snapshot): void {
    const newest = s.attempts[0];
    const running = s.pair.indexing || isAttemptRunning(newest?.status ?? null);
    if (this.runAfter !== undefined && newest?.id !== this.runAfter.id) this.runAfter = undefined;
    if (this.runAfter !== undefined) this.runAfter.reads--;
    const waitingForRun = this.runAfter !== undefined && this.runAfter.reads > 0;
    const deleting = s.pair.status === 'DELETING';
    this.stopFollowing();
    if (running || waitingForRun || deleting) {
      this.timer = setTimeout(() => void this.refresh(s.pair.id), FOLLOW_MS);
    }
    if (!running && !waitingForRun && !deleting && this.status.dataset.kind === 'busy') {
      const ended = newest ? `; its newest index attempt ended ${newest.status ?? 'unknown'}` : '';
      setStatus(this.status, 'ok', `Pair ${s.pair.id} is ${s.pair.status}${ended}.`);
    }
  }

  private render(s: Snapshot): void {
    this.shown = s;
    const { pair } = s;
    const deletion = pair.deletion_failure_message
      ? `failed: ${pair.deletion_failure_message}`
      : (pair.latest_deletion_attempt?.status ?? (pair.status === 'DELETING' ? 'started' : 'none'));
    const rows: [string, string][] = [
      ['Pair', `${pair.id}${pair.name ? ` “${pair.name}”` : ''}`],
      ['Connector', `${pair.connector.id} “${pair.connector.name}” (${pair.connector.source})`],
      ['Credential', String(pair.credential.id)],
      ['Access', s.access.accessType],
      ['Who sees its documents', s.access.readers.join('; ')],
      ['Status', `${pair.status}${pair.indexing ? ', indexing now' : ''}`],
      ['Documents', String(pair.num_docs_indexed)],
      ['Last indexed', pair.last_indexed ?? 'never'],
      ['Last pruned', pair.last_pruned ?? 'never'],
      [
        'In repeated error',
        pair.in_repeated_error_state ? 'yes: its last attempts all failed' : 'no',
      ],
      ['Deletion', deletion],
    ];
    this.detail.replaceChildren(
      ...rows.flatMap(([term, value]) => [
        element('dt', {}, term),
        element('dd', { 'data-field': term }, value),
      ]),
    );
    this.attemptsTable.tBodies[0]!.replaceChildren(
      ...s.attempts.map((a) =>
        element(
          'tr',
          {},
          cell(String(a.id)),
          cell(a.status ?? 'unknown'),
          cell(a.time_started ?? 'not started'),
          cell(`${a.total_docs_indexed} (${a.new_docs_indexed} new)`),
          cell(a.error_msg ?? ''),
        ),
      ),
    );
    this.attemptsTable.hidden = s.attempts.length === 0;
    this.errorsTable.tBodies[0]!.replaceChildren(
      ...s.errors.map((e) =>
        element(
          'tr',
          {},
          cell(e.time_created),
          cell(String(e.index_attempt_id)),
          cell(e.document_id ?? e.entity_id ?? 'the source'),
          cell(e.failure_message),
        ),
      ),
    );
    this.errorsTable.hidden = s.errors.length === 0;
    this.errorsNone.hidden = s.errors.length > 0;
    const gone = pair.status === 'DELETING';
    const resumable = pair.status === 'PAUSED' || pair.status === 'INVALID';
    this.runButton.disabled = gone;
    this.toggleButton.disabled = gone;
    this.toggleButton.textContent = resumable ? 'Resume' : 'Pause';
    this.deleteButton.disabled = gone;
    this.verifyPanel.show(pair.id);
    this.view.hidden = false;
  }

  private async run(): Promise<void> {
    const kis = this.kis;
    const s = this.shown;
    if (kis === undefined || s === undefined) return;
    const { pair } = s;
    if (!isIndexable(pair.status)) {
      setStatus(this.status, 'error', `Not run: the pair is ${pair.status}; resume it first.`);
      return;
    }
    this.runButton.disabled = true;
    setStatus(this.status, 'busy', `Asking for a run of pair ${pair.id}…`);
    try {
      const answer = await kis.pairs.run(pair.id);
      if (answer.data === 0) {
        setStatus(this.status, 'error', 'Not run: an index attempt is already running or waiting.');
        this.runButton.disabled = false;
        return;
      }
      setStatus(this.status, 'busy', `Run started: following pair ${pair.id}…`);
      this.runAfter = { id: s.attempts[0]?.id, reads: RUN_WAIT_READS };
      await this.refresh(pair.id);
    } catch (error) {
      setStatus(this.status, 'error', describe(error, 'runConnectorOnce'));
      this.runButton.disabled = false;
    }
  }

  private async toggle(): Promise<void> {
    const kis = this.kis;
    const s = this.shown;
    if (kis === undefined || s === undefined) return;
    const { pair } = s;
    const resume = pair.status === 'PAUSED' || pair.status === 'INVALID';
    this.toggleButton.disabled = true;
    try {
      if (resume) await kis.pairs.resume(pair.id);
      else await kis.pairs.pause(pair.id);
      setStatus(
        this.status,
        'ok',
        resume
          ? `Pair ${pair.id} resumed.`
          : `Pair ${pair.id} paused: no index attempt runs until it is resumed.`,
      );
      await this.refresh(pair.id);
    } catch (error) {
      setStatus(this.status, 'error', describe(error, 'setCcPairStatus'));
      this.toggleButton.disabled = false;
    }
  }

  private askDelete(): void {
    const s = this.shown;
    if (s === undefined) return;
    const { pair } = s;
    this.dialogText.textContent =
      `Delete pair ${pair.id}${pair.name ? ` “${pair.name}”` : ''} and remove its ` +
      `${pair.num_docs_indexed} document(s) from the index? Its connector goes too when no other pair uses it.`;
    this.dialog.returnValue = '';
    this.dialog.showModal();
  }

  private async remove(): Promise<void> {
    const kis = this.kis;
    const s = this.shown;
    if (kis === undefined || s === undefined) return;
    const id = s.pair.id;
    this.deleteButton.disabled = true;
    try {
      await kis.pairs.delete(id);
    } catch (error) {
      setStatus(this.status, 'error', describe(error, 'createDeletionAttempt'));
      this.deleteButton.disabled = false;
      return;
    }
    this.deleting = true;
    setStatus(this.status, 'busy', `Deleting pair ${id}: its documents leave the index…`);
    await this.refresh(id);
  }
}
