/**
 * The names pairs already answer to (their connector's, or their own), read once from the pair
 * listing. A second pair of such a name makes every command that takes it (PAIR arguments,
 * pair-ref.ts) fail with "names 2 pairs": `kis connector create` refuses one unless
 * `--allow-duplicate-name`, and `kis apply` warns before making one.
 */
import type { ConnectorStatus, KisClient } from '@kis/client';
import { pairCall } from './pair-errors.js';
import { pairsNamed } from './pair-ref.js';

export class TakenNames {
  private constructor(private readonly rows: readonly ConnectorStatus[]) {}

  /** Reads the pair listing; `purpose` is the operation the check prepares (for a refused key). */
  static async read(client: KisClient, baseUrl: string, purpose: string): Promise<TakenNames> {
    const call = {
      operationId: 'listConnectorStatus',
      doing: 'checking that the connector name is free',
      baseUrl,
      purpose,
    };
    return new TakenNames(await pairCall(call, () => client.pairs.list()));
  }

  /**
   * What already answers to `name`, e.g. `pair 2 (connector 1, source file)`; undefined when
   * the name is free.
   */
  holders(name: string): string | undefined {
    const rows = [...pairsNamed(name, this.rows)].sort((a, b) => a.cc_pair_id - b.cc_pair_id);
    if (rows.length === 0) return undefined;
    const each = rows.map(
      (r) => `${r.cc_pair_id} (connector ${r.connector.id}, source ${r.connector.source})`,
    );
    return rows.length === 1 ? `pair ${each[0]}` : `pairs ${each.join(', ')}`;
  }
}
