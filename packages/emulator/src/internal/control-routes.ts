// Outside `/api`: the read-only admin page, the JSON state view, the HTML API reference (`/docs`),
// and the control calls tests and users drive the emulator with (admin key): reset, the indexing
// worker, documents added as a connector would, and how index attempts end.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { HttpBindings } from '@hono/node-server';
import { ANSWERS, type Profile } from '@kis/rules';
import type { Context, Hono } from 'hono';
import { adminPage } from './admin-page.js';
import { type ApiPipeline, answer, checkJson, json } from './api-routes.js';
import type { KeyRing } from './auth.js';
import { readJsonBody } from './body.js';
import type { HandlerContext } from './handlers/index.js';
import { prepareIngestion } from './handlers/index.js';
import type { Indexer } from './indexer.js';
import type { Schemas } from './op-types.js';
import { stateView } from './state-view.js';
import type { Store } from './store/index.js';
import { ATTEMPT_OUTCOMES, parseAttemptOutcome } from './tasks/outcomes.js';
import type { PairTasks } from './tasks/pair-tasks.js';

type App = Hono<{ Bindings: HttpBindings }>;
type Ctx = Context<{ Bindings: HttpBindings }>;

export interface ControlOptions {
  store: Store;
  profile: Profile;
  keys: KeyRing;
  indexer: Indexer;
  tasks: PairTasks;
  pipeline: ApiPipeline;
  /** What the ingestion handler reads to prepare a document. */
  ingestion: Pick<HandlerContext, 'store' | 'profile' | 'behaviour'>;
  maxBodyBytes: number;
  now: () => Date;
  /** What `GET /_emulator/stats` answers. */
  stats: () => unknown;
  /** Deletes everything and starts over (the keys' accounts and groups registered again). */
  reset: () => void;
}

function detail(status: number, message: string): Response {
  return json(status, { detail: message });
}

/** The HTML API reference shipped by @kis/spec (`redocly build-docs`), read once when first asked. */
let referencePage: Promise<string> | undefined;

async function readReference(): Promise<string | undefined> {
  try {
    referencePage ??= readFile(
      createRequire(import.meta.url).resolve('@kis/spec/reference.html'),
      'utf8',
    );
    return await referencePage;
  } catch {
    referencePage = undefined; // not built (yet): look again next time
    return undefined;
  }
}

/** The read-only views: admin page, state, one document, health, stats, the reference. */
function mountViews(app: App, o: ControlOptions): void {
  const { store, profile } = o;
  app.get('/', (c) => c.html(adminPage(store, profile)));
  app.get('/_emulator/state', (c) => {
    const all = c.req.query('all');
    const full = c.req.query('full');
    const limitText = c.req.query('limit') ?? '1000';
    const limit = limitText === 'all' ? -1 : Number(limitText);
    if (!(limit === -1 || (Number.isInteger(limit) && limit >= 0))) {
      return detail(400, "limit must be a non-negative integer or 'all'");
    }
    return c.json({
      profile,
      ...stateView(store, {
        allConnectors: all === '1' || all === 'true',
        fullDocuments: full === '1' || full === 'true',
        documentLimit: limit,
      }),
    });
  });
  app.get('/_emulator/documents/:id', (c) => {
    const doc = store.documents.get(c.req.param('id'));
    return doc === undefined
      ? detail(404, `Document '${c.req.param('id')}' not found`)
      : c.json(doc);
  });
  app.get('/_emulator/health', (c) => c.json({ status: 'ok', profile }));
  app.get('/_emulator/stats', (c) => c.json(o.stats()));
  const docs = async (c: Ctx): Promise<Response> => {
    const html = await readReference();
    return html === undefined
      ? detail(404, 'The API reference is not built: run `pnpm --filter @kis/spec build`')
      : c.html(html);
  };
  app.get('/docs', docs);
  app.get('/docs/', docs);
}

/** Adds a document as if a connector had indexed it (not through the ingestion API). */
async function addDocument(c: Ctx, o: ControlOptions): Promise<Response> {
  const info = o.pipeline.validators.operation('ingestDocument')?.body;
  if (info === undefined) return detail(500, 'the spec has no ingestDocument operation');
  const read = await readJsonBody(c, info, o.maxBodyBytes);
  const checked =
    read.body === undefined
      ? { body: undefined, issues: [] }
      : checkJson(o.pipeline, info, read.body);
  const issues = [...read.decodeIssues, ...read.issues, ...checked.issues];
  if (issues.length > 0) return answer(ANSWERS.validation(o.profile, issues));
  const request = checked.body as Schemas['IngestionRequest']; // validated just above
  const { doc, pairId } = prepareIngestion(o.ingestion, request, o.now(), false);
  const result = o.store.documents.upsert(doc, pairId);
  return c.json({ document_id: doc.id, already_existed: result.already_existed });
}

/** Sets how index attempts end: every pair's, or one pair's with `?cc_pair_id=N`. */
function setAttemptOutcome(c: Ctx, o: ControlOptions): Response {
  let outcome: ReturnType<typeof parseAttemptOutcome>;
  try {
    outcome = parseAttemptOutcome(c.req.param('outcome'), 'the attempt outcome');
  } catch (error) {
    return detail(404, (error as Error).message);
  }
  const pairText = c.req.query('cc_pair_id');
  const pairId = pairText === undefined ? undefined : Number(pairText);
  if (pairId !== undefined && !Number.isInteger(pairId)) {
    return detail(400, `cc_pair_id must be an integer (got '${pairText}')`);
  }
  o.tasks.setAttemptOutcome(outcome, pairId);
  return c.json({ outcome, cc_pair_id: pairId ?? null, outcomes: ATTEMPT_OUTCOMES });
}

/** The refusal of a control call made without the admin key; undefined with it. */
export function adminOnly(keys: KeyRing, c: Ctx): Response | undefined {
  const role = keys.roleOf(c.req.header('authorization'));
  if (role === undefined) return detail(401, 'Missing or invalid API key');
  if (role !== 'admin') return detail(403, 'This call needs the admin API key');
  return undefined;
}

/** The control calls, admin key only. */
function mountControls(app: App, o: ControlOptions): void {
  const adminOnly = (c: Ctx): Response | undefined => adminOnlyWith(o.keys, c);
  app.post('/_emulator/reset', (c) => {
    const denied = adminOnly(c);
    if (denied !== undefined) return denied;
    o.reset();
    return c.json({ success: true });
  });
  app.post('/_emulator/documents', async (c) => adminOnly(c) ?? (await addDocument(c, o)));
  app.post('/_emulator/attempts/:outcome', (c) => adminOnly(c) ?? setAttemptOutcome(c, o));
  app.post('/_emulator/indexing/:action', (c) => {
    const denied = adminOnly(c);
    if (denied !== undefined) return denied;
    const action = c.req.param('action');
    if (action === 'pause') o.indexer.pause();
    else if (action === 'resume') o.indexer.resume();
    else if (action === 'drain') o.indexer.drain();
    else return detail(404, `Unknown indexing action '${action}': expected pause, resume or drain`);
    return c.json({ paused: o.indexer.paused, ...o.store.documents.indexCounts() });
  });
}

const adminOnlyWith = adminOnly;

export function mountControlRoutes(app: App, options: ControlOptions): void {
  mountViews(app, options);
  mountControls(app, options);
}
