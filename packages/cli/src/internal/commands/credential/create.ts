/** `kis credential create --source SOURCE`: creates a credential, prints its id. */
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { collect } from '../../arg-parsers.js';
import { credentialFromSets } from '../../connector-fields.js';
import type { Context } from '../../context.js';
import { checkSource } from '../../enums.js';
import { ExitCode, type ExitCodeValue, UsageError } from '../../errors.js';
import { EXAMPLES } from '../../help-text.js';
import { readObjectArg } from '../../structured.js';

export interface CredentialCreateOptions {
  source: string;
  credentialJson?: string;
  set?: string[];
  name?: string;
  adminPublic?: boolean;
}

export function createCommand({ act, command }: CommandEnv): Command {
  return command('create')
    .description('create a credential (POST /manage/credential); prints its id')
    .requiredOption('--source <source>', 'DocumentSource the credential is for')
    .option('--credential-json <json>', 'credential_json: inline JSON, @file.json or @file.yaml')
    .option(
      '--set <key=value>',
      'a credential_json key (over --credential-json): key=value, key=@file or key=env:NAME; values are never printed',
      collect,
      [] as string[],
    )
    .option('--name <name>', 'display name')
    .option('--admin-public', 'make the credential public to admins (admin_public: true)')
    .addHelpText(
      'after',
      EXAMPLES([
        'kis credential create --source jira --name jira-bot --set jira_user_email=bot@example.com --set jira_api_token=env:JIRA_TOKEN',
        'kis credential create --source jira --name jira-bot --credential-json @jira-cred.json',
        'kis credential create --source confluence --credential-json \'{"confluence_access_token":"…"}\' --admin-public',
      ]),
    )
    .action(act((ctx, options: CredentialCreateOptions) => runCredentialCreate(ctx, options)));
}

/** `kis credential create`: creates the credential, prints its id. */
export async function runCredentialCreate(
  ctx: Context,
  options: CredentialCreateOptions,
): Promise<ExitCodeValue> {
  const source = checkSource('--source', options.source);
  if (options.credentialJson === undefined && (options.set ?? []).length === 0) {
    throw new UsageError(
      `credential create: give --set key=value (see \`kis connector fields ${source}\`) or --credential-json`,
    );
  }
  const given =
    options.credentialJson === undefined
      ? {}
      : await readObjectArg('--credential-json', options.credentialJson, ctx.io.cwd);
  const credentialJson = await credentialFromSets(source, options.set ?? [], given, ctx.io);
  const client = await ctx.client();
  const created = await client.credentials.create({
    credential_json: credentialJson,
    admin_public: options.adminPublic === true,
    source,
    ...(options.name === undefined ? {} : { name: options.name }),
  });
  ctx.out.result(
    { credential_id: created.id },
    `Created credential ${created.id} (source ${source}${options.name ? `, name "${options.name}"` : ''})`,
  );
  return ExitCode.Ok;
}
