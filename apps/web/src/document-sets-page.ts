// The document-sets page: the sets the key may use (their pairs, who may use each, whether the
// last change has synced to the documents) and a form that creates one from pairs and, for a set
// that is not public, the user groups it is shared with. It follows the sets while one syncs.
// Everything goes through @kis/client; which sets are being deleted comes from the rule book.
import {
  type DocumentSetSummary,
  FeatureUnavailableError,
  type KisClient,
  PermissionDeniedError,
} from '@kis/client';
import { setBeingDeleted } from '@kis/rules';
import { byId, clearInvalid, element, markInvalid, setStatus } from './dom.js';

/** Between two reads while a set syncs. */
const FOLLOW_MS = 1000;

/** The items of a comma-separated list, trimmed, empty ones left out. */
const items = (text: string) =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');

function stateOf(set: DocumentSetSummary): string {
  if (setBeingDeleted(set)) return 'being deleted';
  return set.is_up_to_date ? 'synced' : 'syncing';
}

/** An error in words; a set or group refused for the key's scope or the server's edition says why. */
function describe(error: unknown): string {
  if (PermissionDeniedError.isInstance(error) && error.reason === 'out-of-scope') {
    return 'This key acts only within the groups it manages: share the set with those groups only, and keep it private.';
  }
  if (FeatureUnavailableError.isInstance(error)) {
    return `This server has no ${error.feature} (${error.reason === 'edition' ? 'community edition' : `below the ${error.requiredTier ?? 'needed'} plan`}): leave the groups empty.`;
  }
  return error instanceof Error ? error.message : String(error);
}

export class DocumentSetsPage {
  private readonly reloadButton = byId('sets-reload', HTMLButtonElement);
  private readonly status = byId('sets-status', HTMLElement);
  private readonly table = byId('sets-table', HTMLTableElement);
  private readonly form = byId('set-form', HTMLFormElement);
  private readonly nameInput = byId('set-name', HTMLInputElement);
  private readonly pairsInput = byId('set-pairs', HTMLInputElement);
  private readonly publicInput = byId('set-public', HTMLInputElement);
  private readonly groupsInput = byId('set-groups', HTMLInputElement);
  private readonly createButton = byId('set-create', HTMLButtonElement);
  private readonly formStatus = byId('set-form-status', HTMLElement);

  private kis: KisClient | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    this.reloadButton.addEventListener('click', () => void this.load());
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.create();
    });
    this.publicInput.addEventListener('change', () => {
      this.groupsInput.disabled = this.publicInput.checked;
    });
  }

  /** The client to use (undefined: disconnected, the page is emptied). */
  setClient(client: KisClient | undefined): void {
    this.kis = client;
    this.reloadButton.disabled = client === undefined;
    this.createButton.disabled = client === undefined;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.table.hidden = true;
    if (client === undefined) setStatus(this.status, 'ok', 'Connect to list the document sets.');
    else void this.load();
  }

  /** Reads the sets and shows them; reads again while one syncs. */
  private async load(): Promise<void> {
    const kis = this.kis;
    if (kis === undefined) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    let sets: DocumentSetSummary[];
    try {
      sets = (await kis.documentSets.list()).sort((a, b) => a.id - b.id);
    } catch (error) {
      setStatus(this.status, 'error', describe(error));
      return;
    }
    this.render(sets);
    const syncing = sets.filter((s) => !s.is_up_to_date);
    setStatus(
      this.status,
      syncing.length > 0 ? 'busy' : 'ok',
      syncing.length > 0
        ? `${sets.length} document set(s); ${syncing.length} syncing to their documents…`
        : `${sets.length} document set(s), all synced.`,
    );
    if (syncing.length > 0) this.timer = setTimeout(() => void this.load(), FOLLOW_MS);
  }

  private render(sets: DocumentSetSummary[]): void {
    this.table.tBodies[0]?.replaceChildren(
      ...sets.map((s) =>
        element(
          'tr',
          { 'data-set': s.name },
          element('td', {}, String(s.id)),
          element('td', {}, s.name),
          element('td', {}, s.cc_pair_summaries.map((p) => p.name ?? `pair ${p.id}`).join(', ')),
          element(
            'td',
            {},
            s.is_public ? 'everyone' : `${s.groups.length} group(s), ${s.users.length} user(s)`,
          ),
          element('td', { 'data-state': stateOf(s) }, stateOf(s)),
        ),
      ),
    );
    this.table.hidden = sets.length === 0;
  }

  private async create(): Promise<void> {
    const kis = this.kis;
    if (kis === undefined) return;
    clearInvalid(this.nameInput, this.pairsInput, this.groupsInput);
    const name = this.nameInput.value.trim();
    const pairs = items(this.pairsInput.value).map(Number);
    if (name === '') {
      markInvalid(this.nameInput);
      setStatus(this.formStatus, 'error', 'Name: required');
      return;
    }
    if (pairs.length === 0 || !pairs.every((id) => Number.isInteger(id) && id >= 0)) {
      markInvalid(this.pairsInput);
      setStatus(
        this.formStatus,
        'error',
        'Pairs: expected pair ids separated by commas, e.g. 2, 5',
      );
      return;
    }
    const isPublic = this.publicInput.checked;
    this.createButton.disabled = true;
    setStatus(this.formStatus, 'busy', `Creating document set “${name}”…`);
    try {
      const groupNames = isPublic ? [] : items(this.groupsInput.value);
      const groups = groupNames.length === 0 ? [] : await this.groupIds(kis, groupNames);
      if (groups === undefined) return;
      const id = await kis.documentSets.create({
        name,
        description: '',
        cc_pair_ids: pairs,
        is_public: isPublic,
        users: [],
        groups,
      });
      setStatus(
        this.formStatus,
        'ok',
        `Document set ${id} “${name}” created; the server syncs it to its documents.`,
      );
      this.nameInput.value = '';
      await this.load();
    } catch (error) {
      setStatus(this.formStatus, 'error', describe(error));
    } finally {
      this.createButton.disabled = false;
    }
  }

  /** The ids of the groups named (undefined, with the form marked, when one is unknown). */
  private async groupIds(kis: KisClient, names: string[]): Promise<number[] | undefined> {
    const groups = await kis.userGroups.list({ includeDefault: true });
    const unknown = names.filter((n) => !groups.some((g) => g.name === n));
    if (unknown.length > 0) {
      markInvalid(this.groupsInput);
      setStatus(
        this.formStatus,
        'error',
        `Groups: no group named ${unknown.map((n) => `“${n}”`).join(', ')} (groups: ${groups.map((g) => g.name).join(', ') || 'none'})`,
      );
      return undefined;
    }
    return groups.filter((g) => names.includes(g.name)).map((g) => g.id);
  }
}
