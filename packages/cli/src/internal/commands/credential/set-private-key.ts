/** `kis credential set-private-key ID`: replaces a credential's private-key file (multipart upload). */
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { intArg } from '../../arg-parsers.js';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue, UsageError } from '../../errors.js';
import { EXAMPLES } from '../../help-text.js';
import { fsReason, readObjectArg } from '../../structured.js';
import { redactCredential } from './redact.js';

export interface PrivateKeyOptions {
  file: string;
  name: string;
  credentialJson: string;
  fieldKey: string;
  typeDefinitionKey: string;
}

export function setPrivateKeyCommand({ act, command }: CommandEnv): Command {
  return command('set-private-key')
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
