// The control calls of the trust surface (admin key only), over trust-controls.ts: a document's
// access as the index holds it, sabotage (chunks dropped, a pair's access changed behind the
// API's back, index writes failing, a sync stuck), and an embedding-model switch started and
// finished.
import type { HttpBindings } from '@hono/node-server';
import type { Context, Hono } from 'hono';
import { json } from './api-routes.js';
import type { KeyRing } from './auth.js';
import { adminOnly } from './control-routes.js';
import { SwitchInProgressError } from './tasks/model-switch.js';
import { switchoverOf, type TrustControls } from './trust-controls.js';

type App = Hono<{ Bindings: HttpBindings }>;
type Ctx = Context<{ Bindings: HttpBindings }>;

function detail(status: number, message: string): Response {
  return json(status, { detail: message });
}

/** The JSON object of a control call's body ({} when empty), or a 400. */
async function bodyOf(c: Ctx): Promise<Record<string, unknown> | Response> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // answered below
  }
  return detail(400, 'the body must be a JSON object');
}

/** The `:id` of the route. */
const idOf = (c: Ctx): string => c.req.param('id') ?? '';

const ids = (value: unknown): value is number[] =>
  Array.isArray(value) && value.every((v) => Number.isInteger(v));
const texts = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');

export function mountTrustRoutes(app: App, keys: KeyRing, controls: TrustControls): void {
  const { sabotage, modelSwitch } = controls;
  const guarded =
    (handle: (c: Ctx) => Response | Promise<Response>) =>
    async (c: Ctx): Promise<Response> =>
      adminOnly(keys, c) ?? (await handle(c));

  app.get(
    '/_emulator/documents/:id/access',
    guarded((c) => {
      const access = controls.documentAccess(idOf(c));
      return access === undefined
        ? detail(404, `Document '${idOf(c)}' not found`)
        : json(200, access);
    }),
  );

  app.post(
    '/_emulator/documents/:id/drop-chunks',
    guarded((c) =>
      sabotage.dropChunks(idOf(c))
        ? json(200, controls.documentAccess(idOf(c)))
        : detail(404, `Document '${idOf(c)}' not found`),
    ),
  );

  app.put(
    '/_emulator/pairs/:id/access',
    guarded(async (c) => {
      const body = await bodyOf(c);
      if (body instanceof Response) return body;
      const { access_type: accessType, groups } = body;
      if (accessType !== undefined && !['public', 'private', 'sync'].includes(String(accessType))) {
        return detail(400, 'access_type must be public, private or sync');
      }
      if (groups !== undefined && !ids(groups)) return detail(400, 'groups must be group ids');
      const changed = sabotage.setPairAccess(Number(idOf(c)), {
        access_type: accessType === undefined ? undefined : String(accessType),
        groups,
      });
      return changed
        ? json(200, {
            cc_pair_id: Number(idOf(c)),
            access_type: accessType ?? null,
            groups: groups ?? null,
          })
        : detail(404, `Pair ${idOf(c)} not found`);
    }),
  );

  app.put(
    '/_emulator/index-failures',
    guarded(async (c) => {
      const body = await bodyOf(c);
      if (body instanceof Response) return body;
      const { document_ids: documentIds, rate } = body;
      if (documentIds !== undefined && !texts(documentIds)) {
        return detail(400, 'document_ids must be stored document ids');
      }
      if (rate !== undefined && !(typeof rate === 'number' && rate >= 0 && rate <= 1)) {
        return detail(400, 'rate must be a number from 0 to 1');
      }
      if (documentIds !== undefined) sabotage.failIndexing(documentIds);
      if (typeof rate === 'number') sabotage.setIndexFailureRate(rate);
      return json(200, { document_ids: documentIds ?? null, rate: rate ?? null });
    }),
  );

  for (const [kind, path] of [
    ['document-set', '/_emulator/document-sets/:id/sync'],
    ['user-group', '/_emulator/user-groups/:id/sync'],
  ] as const) {
    app.put(
      path,
      guarded(async (c) => {
        const body = await bodyOf(c);
        if (body instanceof Response) return body;
        if (typeof body.stuck !== 'boolean') return detail(400, 'stuck must be true or false');
        const id = Number(idOf(c));
        return sabotage.stickSync(kind, id, body.stuck)
          ? json(200, { id, stuck: body.stuck })
          : detail(404, `${kind} ${idOf(c)} not found`);
      }),
    );
  }

  app.post(
    '/_emulator/model-switch',
    guarded(async (c) => {
      const body = await bodyOf(c);
      if (body instanceof Response) return body;
      try {
        const settings = modelSwitch.start({
          model_name: typeof body.model_name === 'string' ? body.model_name : undefined,
          model_dim: typeof body.model_dim === 'number' ? body.model_dim : undefined,
          switchover_type: switchoverOf(body.switchover_type),
          use_port_flow: typeof body.use_port_flow === 'boolean' ? body.use_port_flow : undefined,
        });
        return json(200, settings);
      } catch (error) {
        if (error instanceof SwitchInProgressError) return detail(409, error.message);
        if (error instanceof RangeError) return detail(400, error.message);
        throw error;
      }
    }),
  );

  app.post(
    '/_emulator/model-switch/finish',
    guarded(() =>
      modelSwitch.finish()
        ? json(200, { finished: true })
        : detail(409, 'no model switch is in progress'),
    ),
  );
}
