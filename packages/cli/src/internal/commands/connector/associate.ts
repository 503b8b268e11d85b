/**
 * `kis connector associate ID --credential ID`: the set-up's last step on its own, for a connector
 * created earlier (by `connector create` stopped after the create, or elsewhere).
 */
import type { ConnectorCreateRequest } from '@kis/client';
import { DEFAULT_CREDENTIAL_ID } from '@kis/rules';
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { intArg } from '../../arg-parsers.js';
import type { Context } from '../../context.js';
import { accessTypes, checkEnum } from '../../enums.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { EXAMPLES } from '../../help-text.js';

export interface ConnectorAssociateOptions {
  credential: number;
  name?: string;
  accessType?: string;
}

export function associateCommand({ act, command }: CommandEnv): Command {
  return command('associate')
    .description(
      "associate a credential with an existing connector (the set-up's last step on its own); prints the cc pair id",
    )
    .argument('<connector-id>', 'connector id', intArg(0))
    .requiredOption(
      '--credential <id>',
      `credential id (${DEFAULT_CREDENTIAL_ID}: the default empty credential, for a source that needs none)`,
      intArg(0),
    )
    .option('--name <name>', 'name of the connector/credential pair')
    .option('--access-type <type>', 'access type: public, private, sync', 'public')
    .addHelpText(
      'after',
      EXAMPLES([
        'kis connector associate 12 --credential 3',
        'kis --json connector associate 12 --credential 0 --access-type private',
      ]),
    )
    .action(
      act((ctx, connectorId: number, options: ConnectorAssociateOptions) =>
        runConnectorAssociate(ctx, connectorId, options),
      ),
    );
}

/** Associates the credential, prints the cc pair id; exit 1 when the server says it failed. */
export async function runConnectorAssociate(
  ctx: Context,
  connectorId: number,
  options: ConnectorAssociateOptions,
): Promise<ExitCodeValue> {
  const accessType = checkEnum('--access-type', options.accessType ?? 'public', accessTypes(), {
    what: 'access type',
  });
  const client = await ctx.client();
  const answer = await client.connectors.associateCredential(connectorId, options.credential, {
    ...(options.name === undefined ? {} : { name: options.name }),
    access_type: accessType.toLowerCase() as ConnectorCreateRequest['access_type'],
  });
  const ccPairId = typeof answer.data === 'number' ? answer.data : null;
  if (answer.success === false) {
    const reason = answer.message ?? 'the server answered success: false';
    ctx.out.result(
      { connector_id: connectorId, credential_id: options.credential, error: reason },
      `${ctx.out.out.red('fail')}  connector ${connectorId} and credential ${options.credential}: ${reason}`,
    );
    return ExitCode.ItemsFailed;
  }
  ctx.out.result(
    { connector_id: connectorId, credential_id: options.credential, cc_pair_id: ccPairId },
    [
      `Associated credential ${options.credential} with connector ${connectorId}`,
      `  cc_pair_id:    ${ccPairId ?? '(not returned by the server)'}`,
    ],
  );
  return ExitCode.Ok;
}
