import { setMaxListeners } from 'node:events';
import type { Emulator } from './handle.js';
import { createApp } from './internal/app.js';
import { Capacity } from './internal/capacity.js';
import { OutageSwitch } from './internal/outage.js';
import { profileSpec } from './internal/profile.js';
import { listen } from './internal/startup/listen.js';
import { openServices } from './internal/startup/services.js';
import { type EmulatorSettings, emulatorSettings } from './internal/startup/settings.js';
import { stateApi } from './internal/startup/state-api.js';
import type { StatsView } from './internal/stats.js';
import { loadSpec, SpecValidators } from './internal/validation.js';
import { Visibility } from './internal/visibility.js';
import type { EmulatorOptions } from './options.js';

export type { Emulator, EmulatorState } from './handle.js';
export { DEFAULT_DELETION_DELAY_MS } from './internal/startup/settings.js';
export type { EmulatorOptions } from './options.js';

export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * Starts the emulator; resolves once it accepts connections. Its parts, in order
 * (`internal/startup/`): the settings, the services (store, keys, index, tasks, test controls),
 * the app (`internal/app.ts`), the server listening, and the handle with its shutdown.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const settings = emulatorSettings(options);
  const validators = new SpecValidators(profileSpec(loadSpec(options.specPath), settings.profile), {
    missingInput: settings.profile === 'deployed',
  });
  const services = openServices(settings, options);
  const shutdown = new AbortController();
  setMaxListeners(0, shutdown.signal); // one listener per stalled answer (--faults slow)
  const capacity =
    options.capacity === undefined
      ? undefined
      : new Capacity(options.capacity, options.queue ?? options.capacity);
  let outages: OutageSwitch | undefined;
  const statsView = (): StatsView =>
    services.stats.view(
      capacity,
      outages?.view() ?? { active: false, outages: 0, last_ended_at: null },
      services.store.documents.embeddingTotal,
    );
  let listening: Awaited<ReturnType<typeof listen>>;
  try {
    const app = appOf(settings, options, services, {
      validators,
      capacity,
      closing: shutdown.signal,
      stats: statsView,
    });
    listening = await listen(app, {
      host: settings.host,
      port: options.port,
      overrideGlobalObjects: options.overrideGlobalObjects ?? false,
    });
  } catch (error) {
    services.close();
    throw error;
  }
  const { server, address, url } = listening;
  server.on('connection', () => {
    services.stats.connections++;
  });
  const outageSwitch = new OutageSwitch(server, address.port, address.address);
  outages = outageSwitch;
  if (options.outage !== undefined) {
    outageSwitch
      .schedule(options.outage.afterMs, options.outage.forMs)
      .catch((error: unknown) => settings.logError(error));
  }

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      outageSwitch.cancel();
      shutdown.abort();
      services.tasks.close();
      services.indexer.stop();
      server.close(() => {
        services.store.close();
        resolve();
      });
      if ('closeAllConnections' in server) server.closeAllConnections();
    });
    return closing;
  };

  return {
    baseUrl: `${url}/api`,
    url,
    host: address.address,
    port: address.port,
    dbPath: settings.dbPath,
    adminKey: settings.adminKey,
    userKeys: settings.userKeys,
    curatorKeys: settings.curatorKeys,
    profile: settings.profile,
    release: settings.release,
    kind: settings.kind,
    edition: settings.edition,
    serverVersion: settings.serverVersion,
    version: settings.version,
    state: stateApi(services),
    indexer: services.indexer,
    tasks: services.tasks,
    sabotage: services.trust.sabotage,
    modelSwitch: services.trust.modelSwitch,
    stats: statsView,
    outage: (forMs, afterMs = 0) => outageSwitch.schedule(afterMs, forMs),
    close,
  };
}

/** The hono app on the services, with what shapes its answers (profile, faults, limits). */
function appOf(
  settings: EmulatorSettings,
  options: EmulatorOptions,
  services: ReturnType<typeof openServices>,
  load: {
    validators: SpecValidators;
    capacity: Capacity | undefined;
    closing: AbortSignal;
    stats: () => StatsView;
  },
): ReturnType<typeof createApp> {
  const { store, indexer, tasks, keys, stats, writer, indexFaults, trust } = services;
  return createApp({
    store,
    indexer,
    tasks,
    validators: load.validators,
    keys,
    profile: settings.profile,
    kind: settings.kind,
    version: settings.version,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    latencyMs: options.latencyMs ?? 0,
    corsOrigin: options.corsOrigin,
    now: settings.now,
    logRequest: options.logRequest,
    logError: settings.logError,
    load: {
      faults: settings.faults,
      random: settings.random,
      capacity: load.capacity,
      stats,
      closing: load.closing,
    },
    stats: load.stats,
    reset: services.reset,
    edition: settings.edition,
    serverVersion: settings.serverVersion,
    indexBackend: settings.indexBackend,
    visibility: new Visibility(store, settings.edition),
    writer,
    indexFaults,
    trust,
  });
}
