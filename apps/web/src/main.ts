// The ingestion console: connection settings, the credential list, connector set-up, file
// ingestion with progress, per-file results and cancel, the pair page (pair-page.ts) and the
// document-sets page (document-sets-page.ts).
// Everything goes through @kis/client; the page has no server of its own.
import {
  type AccessType,
  ConfigValidationError,
  type Credential,
  createKisClient,
  type DocumentSource,
  type IngestProgress,
  type IngestResult,
  type IngestSummary,
  type InputType,
  type KisClient,
} from '@kis/client';
import { SOURCES_WITHOUT_CREDENTIAL } from '@kis/rules';
import { ConfigForm, FieldError } from './config-form.js';
import { DocumentSetsPage } from './document-sets-page.js';
import {
  ACCEPT_ATTRIBUTE,
  acceptedTypesSentence,
  type PreparedDocument,
  prepareFile,
  type RejectedFile,
} from './documents.js';
import { byId, clearInvalid, element, markInvalid, setStatus } from './dom.js';
import { PairPage } from './pair-page.js';
import { forgetKey, loadSettings, saveSettings } from './settings.js';

const INPUT_TYPES: Record<InputType, string> = {
  load_state: 'load_state (one full load)',
  poll: 'poll (periodic)',
  event: 'event (pushed)',
  slim_retrieval: 'slim_retrieval (ids only)',
};
// The spec also accepts the seed's `PUBLIC`; the client sends it lower-cased, so it is not offered.
const ACCESS_TYPES: Record<Exclude<AccessType, 'PUBLIC'>, string> = {
  public: 'public',
  private: 'private',
  sync: 'sync',
};
/** Suggested sources: those that need no secret (the default empty credential serves them). */
const FREE_SOURCES = SOURCES_WITHOUT_CREDENTIAL;

const settingsForm = byId('settings-form', HTMLFormElement);
const baseUrlInput = byId('base-url', HTMLInputElement);
const apiKeyInput = byId('api-key', HTMLInputElement);
const rememberInput = byId('remember-key', HTMLInputElement);
const forgetButton = byId('forget', HTMLButtonElement);
const settingsStatus = byId('settings-status', HTMLElement);

const refreshButton = byId('refresh-credentials', HTMLButtonElement);
const credentialsStatus = byId('credentials-status', HTMLElement);
const credentialsTable = byId('credentials-table', HTMLTableElement);

const connectorForm = byId('connector-form', HTMLFormElement);
const nameInput = byId('connector-name', HTMLInputElement);
const sourceInput = byId('connector-source', HTMLInputElement);
const sourceList = byId('source-suggestions', HTMLDataListElement);
const inputTypeSelect = byId('connector-input-type', HTMLSelectElement);
const accessTypeSelect = byId('connector-access-type', HTMLSelectElement);
const credentialSelect = byId('connector-credential', HTMLSelectElement);
const configInput = byId('connector-config', HTMLTextAreaElement);
const configForm = new ConfigForm(
  byId('connector-config-form', HTMLElement),
  byId('connector-config-json', HTMLDetailsElement),
  configInput,
);
const createButton = byId('create-connector', HTMLButtonElement);
const connectorStatus = byId('connector-status', HTMLElement);
const connectorResult = byId('connector-result', HTMLElement);

const pairInput = byId('cc-pair', HTMLInputElement);
const dropZone = byId('drop-zone', HTMLElement);
const fileInput = byId('file-input', HTMLInputElement);
const acceptedTypes = byId('accepted-types', HTMLElement);
const progressBar = byId('progress', HTMLProgressElement);
const progressText = byId('progress-text', HTMLElement);
const cancelButton = byId('cancel', HTMLButtonElement);
const ingestStatus = byId('ingest-status', HTMLElement);
const resultsList = byId('results', HTMLOListElement);

const pairPage = new PairPage();
const setsPage = new DocumentSetsPage();

let kis: KisClient | undefined;
let running: AbortController | undefined;

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// ---------------------------------------------------------------------------------------------
// Connection

function setConnected(client: KisClient | undefined): void {
  kis = client;
  const off = client === undefined;
  refreshButton.disabled = off;
  createButton.disabled = off;
  fileInput.disabled = off || running !== undefined;
  dropZone.classList.toggle('disabled', off);
  dropZone.setAttribute('aria-disabled', String(off));
  pairPage.setClient(client);
  setsPage.setClient(client);
}

async function connect(): Promise<void> {
  clearInvalid(baseUrlInput, apiKeyInput);
  const baseUrl = baseUrlInput.value.trim();
  const apiKey = apiKeyInput.value.trim();
  if (!/^https?:\/\/\S+$/i.test(baseUrl)) {
    markInvalid(baseUrlInput);
    setStatus(
      settingsStatus,
      'error',
      'Base URL: expected an http(s) address such as http://127.0.0.1:8080/api',
    );
    return;
  }
  if (apiKey === '') {
    markInvalid(apiKeyInput);
    setStatus(settingsStatus, 'error', 'API key: required');
    return;
  }
  let client: KisClient;
  try {
    client = createKisClient({ baseUrl, apiKey, logLevel: 'warn' });
  } catch (error) {
    setStatus(settingsStatus, 'error', describeError(error));
    return;
  }
  saveSettings({ baseUrl, apiKey: rememberInput.checked ? apiKey : undefined });
  setStatus(settingsStatus, 'busy', `Connecting to ${client.baseUrl}…`);
  const credentials = await loadCredentials(client);
  if (credentials === undefined) {
    setConnected(undefined);
    setStatus(settingsStatus, 'error', `Could not connect to ${client.baseUrl}: see below.`);
    return;
  }
  setConnected(client);
  setStatus(settingsStatus, 'ok', `Connected to ${client.baseUrl}.`);
}

settingsForm.addEventListener('submit', (event) => {
  event.preventDefault();
  void connect();
});

forgetButton.addEventListener('click', () => {
  forgetKey();
  apiKeyInput.value = '';
  rememberInput.checked = false;
  setConnected(undefined);
  setStatus(settingsStatus, 'ok', 'The API key was forgotten. Enter it again to reconnect.');
  apiKeyInput.focus();
});

// ---------------------------------------------------------------------------------------------
// Credentials

function renderCredentials(credentials: Credential[]): void {
  const body = credentialsTable.tBodies[0]!;
  body.replaceChildren(
    ...credentials.map((c) =>
      element(
        'tr',
        {},
        element('td', {}, String(c.id)),
        element('td', {}, c.name ?? '(no name)'),
        element('td', {}, c.source),
        element('td', {}, c.admin_public ? 'yes' : 'no'),
      ),
    ),
  );
  credentialsTable.hidden = credentials.length === 0;

  const chosen = credentialSelect.value;
  credentialSelect.replaceChildren(
    element('option', { value: 'auto' }, 'Automatic (by source)'),
    ...credentials.map((c) =>
      element('option', { value: String(c.id) }, `${c.id}: ${c.name ?? '(no name)'} (${c.source})`),
    ),
  );
  if ([...credentialSelect.options].some((o) => o.value === chosen))
    credentialSelect.value = chosen;

  const sources = new Set<string>([...FREE_SOURCES, ...credentials.map((c) => c.source)]);
  sourceList.replaceChildren(...[...sources].map((s) => element('option', { value: s })));
}

async function loadCredentials(client: KisClient): Promise<Credential[] | undefined> {
  setStatus(credentialsStatus, 'busy', 'Loading credentials…');
  try {
    const credentials = await client.credentials.list();
    renderCredentials(credentials);
    setStatus(
      credentialsStatus,
      'ok',
      credentials.length === 1 ? '1 credential.' : `${credentials.length} credentials.`,
    );
    return credentials;
  } catch (error) {
    credentialsTable.hidden = true;
    setStatus(credentialsStatus, 'error', describeError(error));
    return undefined;
  }
}

refreshButton.addEventListener('click', () => {
  if (kis !== undefined) void loadCredentials(kis);
});

// ---------------------------------------------------------------------------------------------
// New connector

inputTypeSelect.replaceChildren(
  ...Object.entries(INPUT_TYPES).map(([value, label]) => element('option', { value }, label)),
);
inputTypeSelect.value = 'load_state';
accessTypeSelect.replaceChildren(
  ...Object.entries(ACCESS_TYPES).map(([value, label]) => element('option', { value }, label)),
);
sourceList.replaceChildren(...FREE_SOURCES.map((s) => element('option', { value: s })));
let shownSource = sourceInput.value.trim();
configForm.render(shownSource);
// re-rendered when the source changes (typing, or a pick from the suggestions)
sourceInput.addEventListener('input', () => {
  const source = sourceInput.value.trim();
  if (source === shownSource) return;
  shownSource = source;
  configForm.render(source);
});

function showConnectorResult(ids: { connector: string; credential: string; pair: string }): void {
  byId('result-connector-id', HTMLElement).textContent = ids.connector;
  byId('result-credential-id', HTMLElement).textContent = ids.credential;
  byId('result-pair-id', HTMLElement).textContent = ids.pair;
  connectorResult.hidden = false;
}

async function createConnector(client: KisClient): Promise<void> {
  clearInvalid(nameInput, sourceInput, configInput);
  const name = nameInput.value.trim();
  const source = sourceInput.value.trim();
  if (name === '') {
    markInvalid(nameInput);
    setStatus(connectorStatus, 'error', 'Name: required');
    return;
  }
  if (source === '') {
    markInvalid(sourceInput);
    setStatus(connectorStatus, 'error', 'Source: required (for example file or web)');
    return;
  }
  configForm.clearIssues();
  let config: Record<string, unknown>;
  try {
    config = configForm.read();
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    if (error.field === '') markInvalid(configInput);
    else
      configForm.showIssues([
        {
          path: `connector_specific_config.${error.field}`,
          message: error.message,
          keyword: 'type',
        },
      ]);
    setStatus(
      connectorStatus,
      'error',
      `Configuration${error.field ? ` ${error.field}` : ''}: ${error.message}`,
    );
    return;
  }
  const credential = credentialSelect.value === 'auto' ? 'auto' : Number(credentialSelect.value);
  createButton.disabled = true;
  connectorResult.hidden = true;
  setStatus(connectorStatus, 'busy', `Creating connector “${name}”…`);
  try {
    const r = await client.setupConnector({
      connector: {
        name,
        // The server checks the value against the spec's list and names the field if it is wrong.
        source: source as DocumentSource,
        input_type: inputTypeSelect.value as InputType,
        access_type: accessTypeSelect.value as AccessType,
        connector_specific_config: config,
        refresh_freq: null,
        prune_freq: null,
      },
      credential,
    });
    showConnectorResult({
      connector: String(r.connectorId),
      credential: String(r.credentialId),
      pair: r.ccPairId === null ? 'not returned by the server' : String(r.ccPairId),
    });
    if (r.ccPairId !== null) {
      pairInput.value = String(r.ccPairId);
      pairPage.suggest(r.ccPairId);
    }
    setStatus(
      connectorStatus,
      'ok',
      `Connector ${r.connectorId} created and associated with credential ${r.credentialId}` +
        (r.ccPairId === null ? '.' : ` as pair ${r.ccPairId}; new files go to this pair.`),
    );
  } catch (error) {
    if (ConfigValidationError.isInstance(error)) {
      // each issue at its field; the ones without a field (choices, JSON view) in the status line
      const rest = configForm.showIssues(error.issues);
      const text = rest.map((i) => `${i.path}: ${i.message}`).join('; ');
      setStatus(
        connectorStatus,
        'error',
        `Configuration: ${text || 'see the fields marked above'}`,
      );
    } else {
      setStatus(connectorStatus, 'error', describeError(error));
    }
  } finally {
    createButton.disabled = kis === undefined;
  }
}

connectorForm.addEventListener('submit', (event) => {
  event.preventDefault();
  if (kis !== undefined) void createConnector(kis);
});

// ---------------------------------------------------------------------------------------------
// Ingestion

/** The client's result statuses, plus `not sent` for documents a cancel kept from starting. */
type RowStatus = IngestResult['status'] | 'not sent';

function addResult(ref: string, status: RowStatus, detail: string): void {
  resultsList.append(
    element(
      'li',
      { class: `result ${status.replace(' ', '-')}` },
      element('span', { class: 'ref' }, ref),
      element('span', { class: 'badge' }, status),
      element('span', { class: 'detail' }, detail),
    ),
  );
}

function resultDetail(r: IngestResult): string {
  if (r.status === 'created' || r.status === 'updated' || r.status === 'skipped') {
    return r.documentId === null ? '' : `document ${r.documentId}`;
  }
  if (r.status === 'aborted') return 'cancelled before the server answered';
  return r.error === undefined ? 'failed' : describeError(r.error);
}

function showProgress(total: number, rejected: number, p: IngestProgress, notSent = 0): void {
  const done = p.done + rejected;
  progressBar.max = Math.max(total, 1);
  progressBar.value = done;
  progressText.textContent =
    `${done} of ${total} done: ${p.created} created, ${p.updated} updated, ` +
    `${p.failed + rejected} failed` +
    (p.aborted > 0 ? `, ${p.aborted} cancelled` : '') +
    (notSent > 0 ? `, ${notSent} not sent` : '') +
    (p.inFlight > 0 ? ` (${p.inFlight} in flight)` : '');
}

function summaryText(s: IngestSummary, rejected: number, notSent: number): string {
  const parts = [`${s.created} created`, `${s.updated} updated`, `${s.failed + rejected} failed`];
  if (s.aborted > 0) parts.push(`${s.aborted} cancelled`);
  if (notSent > 0) parts.push(`${notSent} not sent`);
  const head = s.cancelled ? 'Cancelled' : 'Done';
  return `${head}: ${parts.join(', ')} in ${(s.elapsedMs / 1000).toFixed(1)} s.`;
}

function readPair(): number | undefined | null {
  const text = pairInput.value.trim();
  if (text === '') return undefined;
  const n = Number(text);
  return Number.isInteger(n) && n >= 0 ? n : null;
}

async function ingestFiles(client: KisClient, files: File[]): Promise<void> {
  if (running !== undefined) {
    setStatus(ingestStatus, 'error', 'A run is in progress: wait for it or cancel it first.');
    return;
  }
  if (files.length === 0) return;
  clearInvalid(pairInput);
  const ccPairId = readPair();
  if (ccPairId === null) {
    markInvalid(pairInput);
    setStatus(ingestStatus, 'error', 'Pair id: expected a whole number (or empty for the default)');
    return;
  }
  const controller = new AbortController();
  running = controller;
  fileInput.disabled = true;
  cancelButton.disabled = false;
  resultsList.replaceChildren();
  setStatus(
    ingestStatus,
    'busy',
    `Reading ${files.length === 1 ? '1 file' : `${files.length} files`}…`,
  );

  const prepared = await Promise.all(files.map(prepareFile));
  const items: PreparedDocument[] = [];
  const rejected: RejectedFile[] = [];
  for (const p of prepared) {
    if (Array.isArray(p)) items.push(...p);
    else rejected.push(p);
  }
  for (const r of rejected) addResult(r.ref, 'failed', r.reason);
  const total = items.length + rejected.length;
  const empty: IngestProgress = {
    done: 0,
    created: 0,
    updated: 0,
    failed: 0,
    skipped: 0,
    aborted: 0,
    inFlight: 0,
    waiting: 0,
    concurrency: 0,
    ratePerSec: 0,
    pausedSince: undefined,
    pauseReason: undefined,
  };
  showProgress(total, rejected.length, empty);
  setStatus(
    ingestStatus,
    'busy',
    `Sending ${items.length === 1 ? '1 document' : `${items.length} documents`}…`,
  );

  try {
    const run = client.ingestMany(items, {
      ...(ccPairId === undefined ? {} : { ccPairId }),
      signal: controller.signal,
      onProgress: (p) => showProgress(total, rejected.length, p),
    });
    const answered = new Set<number>();
    for await (const r of run) {
      answered.add(r.index);
      addResult(r.ref ?? `document ${r.index + 1}`, r.status, resultDetail(r));
    }
    const summary = await run.done();
    // After a cancel, the documents that never started get no result from the client: list them.
    const notSent = items.filter((_, i) => !answered.has(i));
    for (const item of notSent) addResult(item.ref, 'not sent', 'the run was cancelled first');
    showProgress(total, rejected.length, run.progress(), notSent.length);
    setStatus(
      ingestStatus,
      summary.failed + rejected.length > 0 || summary.cancelled ? 'error' : 'ok',
      summaryText(summary, rejected.length, notSent.length),
    );
  } catch (error) {
    setStatus(ingestStatus, 'error', `The run stopped: ${describeError(error)}`);
  } finally {
    running = undefined;
    cancelButton.disabled = true;
    fileInput.disabled = kis === undefined;
  }
}

function acceptFiles(files: FileList | null): void {
  const list = files === null ? [] : [...files];
  if (kis === undefined) {
    setStatus(ingestStatus, 'error', 'Connect first (section 1), then drop the files again.');
    return;
  }
  void ingestFiles(kis, list);
}

cancelButton.addEventListener('click', () => {
  if (running === undefined) return;
  running.abort();
  cancelButton.disabled = true;
  setStatus(ingestStatus, 'busy', 'Cancelling: no new document is sent…');
});

fileInput.addEventListener('change', () => {
  acceptFiles(fileInput.files);
  fileInput.value = ''; // choosing the same files again starts a new run
});

// A file dropped outside the zone must not navigate away from the console.
for (const type of ['dragover', 'drop'] as const) {
  window.addEventListener(type, (event) => event.preventDefault());
}
dropZone.addEventListener('dragover', (event) => {
  event.preventDefault();
  if (event.dataTransfer !== null) event.dataTransfer.dropEffect = kis ? 'copy' : 'none';
  dropZone.classList.add('over');
});
dropZone.addEventListener('dragleave', (event) => {
  if (!(event.relatedTarget instanceof Node && dropZone.contains(event.relatedTarget))) {
    dropZone.classList.remove('over');
  }
});
dropZone.addEventListener('drop', (event) => {
  event.preventDefault();
  dropZone.classList.remove('over');
  acceptFiles(event.dataTransfer?.files ?? null);
});

// ---------------------------------------------------------------------------------------------
// Start

// The file types come from the rule book (`@kis/rules`), not from the page.
fileInput.accept = ACCEPT_ATTRIBUTE;
acceptedTypes.textContent = acceptedTypesSentence();
setConnected(undefined);
const saved = loadSettings();
baseUrlInput.value = saved.baseUrl;
if (saved.apiKey !== undefined) {
  apiKeyInput.value = saved.apiKey;
  rememberInput.checked = true;
  void connect();
}
