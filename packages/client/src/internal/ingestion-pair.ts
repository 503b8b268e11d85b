/**
 * `kis.setupIngestionPair`: a pair to push documents into that the server never indexes nor
 * prunes on its own: a connector of the push-only source (the rule book's `PUSH_ONLY_CONNECTOR`:
 * `ingestion_api`, no scheduled refresh nor prune) with the default empty credential. No connector
 * run or prune can empty such a pair; servers accept creating one, and refuse it (400) only when
 * they keep an allow-list of connector types.
 */
import { DEFAULT_CREDENTIAL_ID, PUSH_ONLY_CONNECTOR } from '@kis/rules';
import type { IngestionPairInput, SetupConnectorInput } from '../kis-client.js';
import type { InputType } from '../types.js';

/** The `setupConnector` input of an ingestion pair named `input.name`. */
export function ingestionPairSetup(
  input: IngestionPairInput,
): SetupConnectorInput<'ingestion_api'> {
  if (typeof input?.name !== 'string' || input.name.trim() === '') {
    throw new TypeError('setupIngestionPair: name must be a non-empty string');
  }
  return {
    connector: {
      name: input.name,
      source: PUSH_ONLY_CONNECTOR.source,
      input_type: PUSH_ONLY_CONNECTOR.input_type as InputType,
      access_type: input.access_type ?? 'public',
      connector_specific_config: { ...PUSH_ONLY_CONNECTOR.connector_specific_config },
      refresh_freq: PUSH_ONLY_CONNECTOR.refresh_freq,
      prune_freq: PUSH_ONLY_CONNECTOR.prune_freq,
      ...(input.groups ? { groups: input.groups } : {}),
    },
    credential: DEFAULT_CREDENTIAL_ID,
    ...(input.association ? { association: input.association } : {}),
  };
}
