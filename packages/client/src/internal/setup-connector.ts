/**
 * `kis.setupConnector`: the seed's three steps (create a connector, find its credential,
 * associate them), with the credential found and checked before anything is created, so a typo
 * leaves no connector half-made.
 */
import { DEFAULT_CREDENTIAL_ID, needsCredential } from '@kis/rules';
import { ConnectorSetupError, KisError, type KisErrorInit } from '../errors.js';
import type {
  AssociationResult,
  KisClient,
  SetupConnectorInput,
  SetupConnectorResult,
} from '../kis-client.js';
import type { LevelLogger } from '../logging.js';
import type { CallControl, RequestOptions } from '../request-options.js';
import type {
  ConnectorCreateInput,
  ConnectorCredentialPairMetadata,
  Credential,
  ObjectCreationIdResponse,
} from '../types.js';
import { assertConnectorConfig } from './config-check.js';
import type { Redactor } from './redact.js';

export interface SetupDeps {
  connectors: KisClient['connectors'];
  credentials: KisClient['credentials'];
  log: LevelLogger;
  redactor: Redactor;
}

function statusOf(err: unknown): KisErrorInit {
  return KisError.isInstance(err)
    ? { status: err.status, requestId: err.requestId, code: err.code }
    : {};
}

const message = (err: unknown) => String((err as Error)?.message ?? err);

async function listCredentials(
  deps: SetupDeps,
  opts: RequestOptions | undefined,
): Promise<Credential[]> {
  try {
    return await deps.credentials.list(opts);
  } catch (err) {
    throw new ConnectorSetupError(
      `setupConnector: listing credentials failed (no connector was created): ${message(err)}`,
      {
        stage: 'credential',
        problem: { kind: 'request-failed', reason: message(err) },
        cause: err,
        ...statusOf(err),
      },
    );
  }
}

/**
 * The credential to associate, found before anything is created: `'auto'` picks by source; an
 * explicit id other than 0 is checked against the listing (it exists, and serves the source), so
 * a typo leaves no connector half-created. Credential 0, the default empty one, is taken as given.
 */
async function resolveCredential(
  deps: SetupDeps,
  connector: ConnectorCreateInput,
  credential: 'auto' | number,
  opts: RequestOptions | undefined,
): Promise<number> {
  const source = connector.source;
  if (credential !== 'auto') {
    if (typeof credential !== 'number' || !Number.isInteger(credential) || credential < 0) {
      throw new TypeError(
        `setupConnector: credential must be 'auto' or an integer ≥ 0 (got ${JSON.stringify(credential)})`,
      );
    }
    if (credential === DEFAULT_CREDENTIAL_ID) return credential;
    const all = await listCredentials(deps, opts);
    const found = all.find((c) => c.id === credential);
    if (found === undefined) {
      const availableIds = all.map((c) => c.id);
      throw new ConnectorSetupError(
        `setupConnector: credential ${credential} does not exist (credential ids: ${availableIds.join(', ') || 'none'}); no connector was created.`,
        {
          stage: 'credential',
          problem: { kind: 'unknown-credential', credentialId: credential, availableIds },
          credentialId: credential,
        },
      );
    }
    if (found.source !== source) {
      throw new ConnectorSetupError(
        `setupConnector: credential ${credential} has source "${found.source}", not the connector's "${source}"; no connector was created.`,
        {
          stage: 'credential',
          problem: {
            kind: 'credential-source-mismatch',
            credentialId: credential,
            credentialSource: found.source,
            source,
          },
          credentialId: credential,
        },
      );
    }
    return credential;
  }
  if (!needsCredential(source)) return DEFAULT_CREDENTIAL_ID;
  const all = await listCredentials(deps, opts);
  const matches = all.filter((c) => c.source === source);
  if (matches.length === 1) return (matches[0] as Credential).id;
  if (matches.length > 1) {
    const credentialIds = matches.map((c) => c.id);
    throw new ConnectorSetupError(
      `setupConnector: ${matches.length} credentials have source "${source}" (ids ${credentialIds.join(', ')}); pass credential: <id> (no connector was created).`,
      { stage: 'credential', problem: { kind: 'ambiguous-credential', source, credentialIds } },
    );
  }
  const availableSources = [...new Set(all.map((c) => c.source))].sort();
  throw new ConnectorSetupError(
    `setupConnector: no credential has source "${source}" (credentials exist for: ${availableSources.join(', ') || 'none'}); create one or pass credential: <id> (no connector was created).`,
    { stage: 'credential', problem: { kind: 'no-credential', source, availableSources } },
  );
}

/** Create the connector, resolve its credential and associate them (see `KisClient`). */
export async function setupConnector(
  deps: SetupDeps,
  input: SetupConnectorInput,
  opts?: RequestOptions,
): Promise<SetupConnectorResult> {
  if (
    typeof input !== 'object' ||
    input === null ||
    typeof input.connector !== 'object' ||
    input.connector === null
  ) {
    throw new TypeError('setupConnector: input must be { connector, credential? }');
  }
  const { log } = deps;
  // access_type is lower-cased by `connectors.create` and the association
  const connector = input.connector;
  // checked before the credential lookup too: nothing is sent for a config that cannot work
  await assertConnectorConfig(connector.source, connector.connector_specific_config);
  const credentialId = await resolveCredential(deps, connector, input.credential ?? 'auto', opts);
  let created: ObjectCreationIdResponse;
  try {
    created = await deps.connectors.create(connector, opts);
  } catch (err) {
    const text = `setupConnector: creating connector "${connector.name}" failed: ${message(err)}`;
    log.log('error', text);
    throw new ConnectorSetupError(text, {
      stage: 'create',
      problem: { kind: 'request-failed', reason: message(err) },
      credentialId,
      cause: err,
      ...statusOf(err),
    });
  }
  const connectorId = created.id;
  // the pair is named after the connector (deployed servers require a name)
  const body: ConnectorCredentialPairMetadata = {
    name: connector.name,
    access_type: connector.access_type,
    ...(connector.groups ? { groups: connector.groups } : {}),
    ...input.association,
  };
  let retried = 0;
  let answer: AssociationResult;
  const unfinished = `Connector ${connectorId} exists but is not associated with credential ${credentialId}; finish with connectors.associateCredential(${connectorId}, ${credentialId}) or delete it in the admin interface.`;
  try {
    const control: CallControl = { ...opts, onRetry: () => void retried++ };
    answer = await deps.connectors.associateCredential(connectorId, credentialId, body, control);
  } catch (err) {
    log.log('error', `setupConnector: association failed. ${unfinished}`);
    throw new ConnectorSetupError(
      `setupConnector: associating the credential failed: ${message(err)} ${unfinished}`,
      {
        stage: 'associate',
        problem: { kind: 'request-failed', reason: message(err) },
        connectorId,
        credentialId,
        cause: err,
        ...statusOf(err),
      },
    );
  }
  if (answer.success === false) {
    if (retried > 0) {
      // our first attempt most likely succeeded and its answer was lost
      log.log(
        'warn',
        `setupConnector: association answered success:false after a retry (${answer.message ?? 'no message'}); treating it as done, pair id unknown.`,
      );
      return { connectorId, credentialId, ccPairId: null };
    }
    log.log('error', `setupConnector: the server refused the association. ${unfinished}`);
    throw new ConnectorSetupError(
      `setupConnector: the association answered success:false (${answer.message ?? 'no message'}). ${unfinished}`,
      {
        stage: 'associate',
        problem: { kind: 'refused', reason: answer.message ?? 'no message' },
        connectorId,
        credentialId,
        body: deps.redactor.value(answer),
      },
    );
  }
  return { connectorId, credentialId, ccPairId: answer.ccPairId };
}
