/**
 * The seed's connector set-up workflow, written with @kis/client:
 *   1. create an issue-tracker (jira) connector per project key and keep each returned id;
 *   2. list the credentials and pick the one whose `source` matches the connector
 *      (sources that need none, such as `file` and `web`, use the default empty credential 0:
 *      `SOURCES_WITHOUT_CREDENTIAL` and `needsCredential` of `@kis/rules` say which);
 *   3. associate the credential with each connector, which makes it fully created.
 *
 * Configuration, by environment:
 *   KIS_BASE_URL      base URL of the service, including /api (e.g. http://127.0.0.1:8080/api)
 *   KIS_API_KEY       an API key that can manage connectors (admin; curator or admin on deployed
 *                     servers)
 *   KIS_JIRA_BASE_URL base address of the tracker       (default https://example.atlassian.net)
 *   KIS_PROJECT_KEYS  comma-separated project keys      (default KIS,OPS)
 *
 * Prints one line per connector, or JSON lines with KIS_OUTPUT=json.
 */
import { createKisClient, KisError } from '@kis/client';

function env(name: string, fallback?: string): string {
  const value = process.env[name] ?? fallback;
  if (!value) {
    console.error(
      `${name} is not set: expected ${name === 'KIS_API_KEY' ? 'an admin API key' : 'the service base URL including /api'}`,
    );
    process.exit(2);
  }
  return value;
}

const kis = createKisClient({ baseUrl: env('KIS_BASE_URL'), apiKey: env('KIS_API_KEY') });
const jiraBaseUrl = env('KIS_JIRA_BASE_URL', 'https://example.atlassian.net');
const projectKeys = env('KIS_PROJECT_KEYS', 'KIS,OPS')
  .split(',')
  .map((key) => key.trim())
  .filter(Boolean);
const json = process.env.KIS_OUTPUT === 'json';

// Step 2 once for all connectors: the credentials do not change between them.
const credentials = await kis.credentials.list();
const jiraCredential = credentials.find((c) => c.source === 'jira');
if (!jiraCredential) {
  const sources = [...new Set(credentials.map((c) => c.source))].join(', ') || 'none';
  console.error(
    `no credential with source "jira" exists (credentials exist for: ${sources}); ` +
      'create one in the admin interface or with `kis credential create --source jira`',
  );
  process.exit(1);
}

let failures = 0;
for (const projectKey of projectKeys) {
  // Step 1: create the connector and keep its id.
  let connectorId: number;
  try {
    const created = await kis.connectors.create({
      name: `Jira ${projectKey}`,
      source: 'jira',
      input_type: 'poll',
      access_type: 'public',
      connector_specific_config: {
        jira_base_url: jiraBaseUrl,
        project_key: projectKey,
        comment_email_blacklist: [],
      },
      refresh_freq: 3600,
      prune_freq: 86400,
    });
    connectorId = created.id;
  } catch (error) {
    failures += 1;
    console.error(`project ${projectKey}: connector not created: ${describe(error)}`);
    continue;
  }

  // Step 3: associate the credential, which makes the connector fully created.
  try {
    const association = await kis.connectors.associateCredential(connectorId, jiraCredential.id, {
      name: `Jira ${projectKey}`,
      access_type: 'public',
    });
    if (!association.success) {
      throw new Error(association.message ?? 'the server answered success: false');
    }
    const ccPairId = association.data ?? null;
    if (json) {
      console.log(
        JSON.stringify({
          project_key: projectKey,
          connector_id: connectorId,
          credential_id: jiraCredential.id,
          cc_pair_id: ccPairId,
        }),
      );
    } else {
      console.log(
        `project ${projectKey}: connector ${connectorId} associated with credential ${jiraCredential.id} (cc_pair ${ccPairId ?? 'not returned by the server'})`,
      );
    }
  } catch (error) {
    failures += 1;
    console.error(
      `project ${projectKey}: connector ${connectorId} exists but is not associated with credential ${jiraCredential.id}: ${describe(error)}`,
    );
  }
}

function describe(error: unknown): string {
  if (KisError.isInstance(error)) return error.message;
  return error instanceof Error ? error.message : String(error);
}

process.exit(failures > 0 ? 1 : 0);
