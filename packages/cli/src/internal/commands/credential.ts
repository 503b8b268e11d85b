/** `kis credential` (alias `credentials`): `list`, `create` and `set-private-key`. */
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { Command } from 'commander';
import type { Act, CommandEnv } from '../action.js';
import { collect, intArg } from '../arg-parsers.js';
import { credentialFromSets } from '../connector-fields.js';
import type { Context } from '../context.js';
import { checkSource } from '../enums.js';
import { ExitCode, type ExitCodeValue, UsageError } from '../errors.js';
import { EXAMPLES } from '../help-text.js';
import { fsReason, readObjectArg } from '../structured.js';

export interface CredentialListOptions {
  source?: string;
}

export interface CredentialCreateOptions {
  source: string;
  credentialJson?: string;
  set?: string[];
  name?: string;
  adminPublic?: boolean;
}

export interface PrivateKeyOptions {
  file: string;
  name: string;
  credentialJson: string;
  fieldKey: string;
  typeDefinitionKey: string;
}

export function credentialCommand({ act }: CommandEnv): Command {
  return new Command('credential')
    .alias('credentials')
    .description('list and create credentials, replace a private key')
    .addCommand(listCommand(act))
    .addCommand(createCommand(act))
    .addCommand(setPrivateKeyCommand(act));
}

function listCommand(act: Act): Command {
  return new Command('list')
    .description('list credentials (credential_json values are never printed)')
    .option('--source <source>', 'only credentials of this DocumentSource')
    .addHelpText(
      'after',
      EXAMPLES(['kis credential list', 'kis --json credential list --source jira']),
    )
    .action(act((ctx, options: CredentialListOptions) => runCredentialList(ctx, options)));
}

function createCommand(act: Act): Command {
  return new Command('create')
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

function setPrivateKeyCommand(act: Act): Command {
  return new Command('set-private-key')
    .description('replace the private-key file of a credential (multipart upload)')
    .argument('<id>', 'credential id', intArg(0))
    .requiredOption('--file <path>', 'the private-key file, e.g. a PKCS#12 .pfx file')
    .requiredOption('--name <name>', 'display name of the credential')
    .requiredOption(
      '--credential-json <json>',
      'credential_json: inline JSON, @file.json or @file.yaml',
    )
    .requiredOption(
      '--field-key <key>',
      'key inside credential_json that receives the processed file',
    )
    .requiredOption('--type-definition-key <key>', 'kind of file, e.g. sharepoint_pfx_file')
    .addHelpText(
      'after',
      EXAMPLES([
        'kis credential set-private-key 12 --file cert.pfx --name sharepoint --credential-json @cred.json --field-key sp_private_key --type-definition-key sharepoint_pfx_file',
      ]),
    )
    .action(
      act((ctx, id: number, options: PrivateKeyOptions) => runSetPrivateKey(ctx, id, options)),
    );
}

/** A credential as printed: `credential_json` values hidden (they are secrets), keys kept. */
export function redactCredential(record: Record<string, unknown>): Record<string, unknown> {
  const json = record.credential_json;
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return { ...record };
  return {
    ...record,
    credential_json: Object.fromEntries(Object.keys(json).map((k) => [k, '[REDACTED]'])),
  };
}

/** `kis credential list`: a table (or a JSON line per credential), values hidden. */
export async function runCredentialList(
  ctx: Context,
  options: CredentialListOptions,
): Promise<ExitCodeValue> {
  const source = options.source === undefined ? undefined : checkSource('--source', options.source);
  const client = await ctx.client();
  const all = await client.credentials.list();
  const list = source === undefined ? all : all.filter((c) => c.source === source);
  const { out } = ctx;
  const rows = list.map((c) => {
    const record = c as unknown as Record<string, unknown>;
    return {
      id: String(record.id),
      source: String(record.source),
      name: typeof record.name === 'string' ? record.name : '',
      admin_public:
        record.admin_public === true ? 'yes' : record.admin_public === false ? 'no' : '',
    };
  });
  for (const c of list) out.result(redactCredential(c as unknown as Record<string, unknown>));
  out.result({ summary: { count: list.length } });
  if (!out.mode.json) {
    if (rows.length === 0) {
      out.human(source === undefined ? 'No credentials.' : `No credentials with source ${source}.`);
    } else {
      const w = (key: keyof (typeof rows)[number], title: string) =>
        Math.max(title.length, ...rows.map((r) => r[key].length));
      const widths = { id: w('id', 'ID'), source: w('source', 'SOURCE'), name: w('name', 'NAME') };
      const line = (id: string, src: string, name: string, pub: string) =>
        `${id.padEnd(widths.id)}  ${src.padEnd(widths.source)}  ${name.padEnd(widths.name)}  ${pub}`.trimEnd();
      out.human(out.out.bold(line('ID', 'SOURCE', 'NAME', 'ADMIN_PUBLIC')));
      for (const r of rows) out.human(line(r.id, r.source, r.name, r.admin_public));
    }
  }
  return ExitCode.Ok;
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

/** `kis credential set-private-key ID`: uploads the file, prints the credential (values hidden). */
export async function runSetPrivateKey(
  ctx: Context,
  id: number,
  options: PrivateKeyOptions,
): Promise<ExitCodeValue> {
  const credentialJson = await readObjectArg(
    '--credential-json',
    options.credentialJson,
    ctx.io.cwd,
  );
  for (const [flag, value] of [
    ['--name', options.name],
    ['--field-key', options.fieldKey],
    ['--type-definition-key', options.typeDefinitionKey],
  ] as const) {
    if (value.trim() === '') throw new UsageError(`${flag}: expected a non-empty value`);
  }
  const path = resolve(ctx.io.cwd, options.file);
  let data: Buffer;
  try {
    data = await readFile(path);
  } catch (error) {
    throw new UsageError(`--file: cannot read "${options.file}": ${fsReason(error)}`);
  }
  if (data.length === 0) throw new UsageError(`--file: "${options.file}" is empty`);
  const client = await ctx.client();
  const record = await client.credentials.updatePrivateKey(id, {
    name: options.name,
    credentialJson,
    file: {
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      fileName: basename(path),
      contentType: /\.(pfx|p12)$/i.test(path) ? 'application/x-pkcs12' : 'application/octet-stream',
    },
    fieldKey: options.fieldKey,
    typeDefinitionKey: options.typeDefinitionKey,
  });
  ctx.out.result(
    {
      credential_id: id,
      credential: redactCredential(record as unknown as Record<string, unknown>),
    },
    `Updated the private key of credential ${id} (field ${options.fieldKey}, type ${options.typeDefinitionKey})`,
  );
  return ExitCode.Ok;
}
