// Connectors and their credential associations: creation, listing, replacement and deletion of
// connectors, association on either path (the seed's `/manage/admin/connector/...` and deployed
// servers' `/manage/connector/...`), and the removal of a pair at once.
import {
  ANSWERS,
  DEFAULT_CREDENTIAL_ID,
  DEFAULT_DOCUMENT_SOURCE,
  defaultGroupShareText,
  needsCredential,
  PRUNE_FREQ_ON_UPDATE,
  toRfc3339,
  USER_GROUP_ANSWERS,
} from '@kis/rules';
import { AnswerError, HttpError } from '../errors.js';
import type { Handlers, Schemas } from '../op-types.js';
import type { ConnectorWrite } from '../store/connectors.js';
import { connectorView } from '../views.js';
import { canonicalAccessType, type HandlerContext } from './context.js';

/** A connector body (create or update) as the store writes it. */
function connectorWrite(
  body: Schemas['ConnectorCreateRequest'],
  pruneDefault: number | null,
): ConnectorWrite {
  return {
    name: body.name,
    source: body.source,
    input_type: body.input_type,
    access_type: canonicalAccessType(body.access_type),
    connector_specific_config: body.connector_specific_config,
    refresh_freq: body.refresh_freq ?? null,
    prune_freq: body.prune_freq ?? pruneDefault,
    indexing_start: body.indexing_start == null ? null : toRfc3339(body.indexing_start),
    groups: body.groups ?? [],
  };
}

/** `Connector`s of the store, by id, with their credential ids. */
export function connectorOf(ctx: HandlerContext, id: number): Schemas['Connector'] | undefined {
  const connector = ctx.store.connectors.get(id);
  return connector === undefined
    ? undefined
    : connectorView(connector, ctx.store.pairs.credentialIdsOfConnector(id));
}

function connectorNotFound(id: number): HttpError {
  return new HttpError(404, `Connector ${id} does not exist`);
}

type AssociationBody =
  | Schemas['ConnectorCredentialPairMetadata']
  | Schemas['ConnectorCredentialPairRequest'];

/** Deployed servers' processing mode when the body names none. */
const DEFAULT_PROCESSING_MODE = 'REGULAR';

function associate(
  ctx: HandlerContext,
  connectorId: number,
  credentialId: number,
  body: AssociationBody | undefined,
): Schemas['StatusResponse'] {
  const { store, profile } = ctx;
  const connector = store.connectors.get(connectorId);
  if (connector === undefined) {
    throw new AnswerError(ANSWERS.associationUnknown(profile, 'connector', connectorId));
  }
  const credential = store.credentials.get(credentialId);
  if (credential === undefined) {
    throw new AnswerError(ANSWERS.associationUnknown(profile, 'credential', credentialId));
  }
  if (ctx.behaviour.checkPairSources) {
    if (credentialId === DEFAULT_CREDENTIAL_ID) {
      if (needsCredential(connector.source)) {
        throw new HttpError(
          400,
          `Credential ${DEFAULT_CREDENTIAL_ID} is the default empty credential, usable only by sources that need none; connector ${connectorId} has source '${connector.source}': associate a credential of source '${connector.source}'`,
        );
      }
    } else if (credential.source !== connector.source) {
      throw new HttpError(
        400,
        `Credential ${credentialId} has source '${credential.source}' but connector ${connectorId} has source '${connector.source}': the sources must match`,
      );
    }
  }
  if (store.pairs.find(connectorId, credentialId) !== undefined) {
    throw new AnswerError(ANSWERS.associationExists(profile, connectorId, credentialId));
  }
  // the main line shares with no seeded group (`db/user_group.py:51-72`); 4.6.1 does not check
  const seeded =
    ctx.kind === 'main' ? store.groups.byIds(body?.groups ?? []).filter((g) => g.is_default) : [];
  if (seeded.length > 0) {
    const text = defaultGroupShareText(seeded.map((g) => g.name));
    throw new AnswerError(USER_GROUP_ANSWERS.invalidInput('main', text));
  }
  const problem = ctx.checkConfig(connector.source, connector.connector_specific_config);
  const refused = problem === undefined ? undefined : ANSWERS.connectorValidation(profile, problem);
  if (refused !== undefined) throw new AnswerError(refused);
  const pair = store.pairs.create({
    connector_id: connectorId,
    credential_id: credentialId,
    name: body?.name ?? connector.name,
    access_type: canonicalAccessType(body?.access_type) ?? connector.access_type ?? 'public',
    groups: body?.groups ?? [],
    auto_sync_options: body?.auto_sync_options ?? null,
    processing_mode: body?.processing_mode ?? DEFAULT_PROCESSING_MODE,
  });
  ctx.tasks.poke(); // the new pair's first index attempt
  return {
    success: true,
    message: `Credential ${credentialId} associated with connector ${connectorId}: connector/credential pair ${pair.id}`,
    data: pair.id,
  };
}

export function connectorHandlers(
  ctx: HandlerContext,
): Pick<
  Handlers,
  | 'createConnector'
  | 'listConnectors'
  | 'getConnector'
  | 'updateConnector'
  | 'deleteConnector'
  | 'associateCredentialWithConnector'
  | 'associateCredential'
  | 'dissociateCredential'
> {
  const { store, profile } = ctx;
  return {
    createConnector({ body }) {
      if (store.connectors.findByNameAndSource(body.name, body.source) !== undefined) {
        const refused = ANSWERS.duplicateConnector(profile, body.name, body.source);
        if (refused !== undefined) throw new AnswerError(refused);
      }
      const connector = store.connectors.create(connectorWrite(body, null));
      return { status: 200, body: { id: connector.id, credential: null } };
    },

    // Deployed servers leave out every connector of the ingestion source, the default one (0)
    // included; connectors with no pair yet are listed.
    listConnectors() {
      const connectors = store.connectors
        .list({ all: true })
        .filter((c) => c.source !== DEFAULT_DOCUMENT_SOURCE)
        .map((c) => connectorView(c, store.pairs.credentialIdsOfConnector(c.id)));
      return { status: 200, body: connectors };
    },

    getConnector({ params }) {
      const connector = connectorOf(ctx, params.connector_id);
      if (connector === undefined) throw connectorNotFound(params.connector_id);
      return { status: 200, body: connector };
    },

    // A full replace with the creation body. Deployed servers refuse a new name that another
    // connector of the (new) source has, with a `message`; a name kept as it is is not checked.
    updateConnector({ params, body }) {
      const id = params.connector_id;
      const current = store.connectors.get(id);
      if (current === undefined) throw connectorNotFound(id);
      if (body.name !== current.name && store.connectors.nameTaken(body.name, body.source, id)) {
        throw new AnswerError({
          status: 400,
          body: { message: 'Connector by this name already exists, duplicate naming not allowed.' },
        });
      }
      // a null prune_freq becomes 7 days: the update arms automatic pruning (`db/connector.py:145-149`)
      store.connectors.update(id, connectorWrite(body, PRUNE_FREQ_ON_UPDATE));
      const updated = connectorOf(ctx, id);
      if (updated === undefined) throw connectorNotFound(id);
      return { status: 200, body: updated };
    },

    // Removes the connector and its pairs at once; the documents stay stored, attached to no
    // pair. An unknown id is not an error.
    deleteConnector({ params }) {
      const id = params.connector_id;
      const deleted = store.connectors.delete(id);
      return {
        status: 200,
        body: {
          success: true,
          message: deleted ? 'Connector deleted successfully' : 'Connector was already deleted',
          data: id,
        },
      };
    },

    associateCredentialWithConnector({ params, body }) {
      return {
        status: 200,
        body: associate(ctx, params.connector_id, params.credential_id, body),
      };
    },

    associateCredential({ params, body }) {
      return {
        status: 200,
        body: associate(ctx, params.connector_id, params.credential_id, body),
      };
    },

    dissociateCredential({ params }) {
      const { connector_id: connectorId, credential_id: credentialId } = params;
      if (store.connectors.get(connectorId) === undefined) {
        throw new HttpError(404, 'Connector does not exist');
      }
      if (store.credentials.get(credentialId) === undefined) {
        throw new HttpError(404, 'Credential does not exist or does not belong to user');
      }
      const pair = store.pairs.find(connectorId, credentialId);
      const removed = pair !== undefined && store.pairs.delete(pair.id);
      return {
        status: 200,
        body: removed
          ? {
              success: true,
              message: `Credential ${credentialId} removed from Connector`,
              data: connectorId,
            }
          : {
              success: false,
              message: `Connector already does not have Credential ${credentialId}`,
              data: connectorId,
            },
      };
    },
  };
}
