// The read-only admin page (`GET /`): fully created connectors with their pairs (status, document
// count, last index attempt), credentials (names and sources only), and the most recent
// documents with their indexing state. Self-contained HTML (no external assets); every value is
// escaped.
import type { Profile } from '@kis/rules';
import type { Store } from './store/index.js';

const RECENT_DOCUMENTS = 50;

const PROFILE_NOTES: Record<Profile, string> = {
  seed: 'behaves as the seed contract describes',
  deployed:
    'behaves as the servers people run: their routes, roles, error bodies and lax validation',
};

export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function table(headers: string[], rows: string[][], empty: string): string {
  if (rows.length === 0) return `<p class="empty">${escapeHtml(empty)}</p>`;
  const head = headers.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const body = rows
    .map((r) => `<tr>${r.map((cell) => `<td>${cell}</td>`).join('')}</tr>`)
    .join('\n');
  return `<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** How the pair's newest index attempt went, in words. */
function lastAttempt(store: Store, pairId: number): string {
  const newest = store.indexAttempts.newest(pairId);
  return newest === undefined
    ? 'no index attempt yet'
    : `last index attempt ${escapeHtml(newest.status)}`;
}

export function adminPage(store: Store, profile: Profile): string {
  const connectors = store.connectors.list();
  const pairs = store.pairs.list();
  const counts = store.pairs.documentCounts();
  const credentials = store.credentials.list();
  const documents = store.documents.listSummaries(RECENT_DOCUMENTS);
  const indexing = store.documents.indexCounts();

  const connectorRows = connectors.map((c) => {
    const own = pairs.filter((p) => p.connector_id === c.id);
    const pairText = own
      .map(
        (p) =>
          `pair ${escapeHtml(p.id)} (credential ${escapeHtml(p.credential_id)}, ${escapeHtml(p.access_type)}${p.status === 'ACTIVE' ? '' : `, ${escapeHtml(p.status)}`}): ${escapeHtml(counts.get(p.id) ?? 0)} documents, ${lastAttempt(store, p.id)}`,
      )
      .join('<br>');
    return [
      escapeHtml(c.id),
      escapeHtml(c.name),
      escapeHtml(c.source),
      escapeHtml(c.input_type),
      escapeHtml(c.access_type),
      pairText,
    ];
  });
  const credentialRows = credentials.map((c) => [
    escapeHtml(c.id),
    escapeHtml(c.name ?? ''),
    escapeHtml(c.source),
    c.private_key === null ? '' : 'private key file stored',
  ]);
  const documentRows = documents.map((d) => [
    `<code>${escapeHtml(d.id)}</code>`,
    escapeHtml(d.semantic_identifier),
    escapeHtml(d.source),
    escapeHtml(d.cc_pair_ids.join(', ')),
    `<span class="state ${escapeHtml(d.index_state)}">${escapeHtml(d.index_state)}</span>`,
    escapeHtml(d.time_updated),
  ]);

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>kis-emulator</title>
<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='3' fill='%231d4ed8'/%3E%3Cpath d='M5 3v10M11 4 6 8.5 11 12' stroke='white' stroke-width='2' fill='none'/%3E%3C/svg%3E">
<style>
body { font-family: system-ui, sans-serif; margin: 2rem; color: #1d2330; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.1rem; margin-top: 2rem; }
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
th, td { text-align: left; border-bottom: 1px solid #dde1e8; padding: 0.35rem 0.6rem; vertical-align: top; }
th { background: #f3f5f8; }
code { font-size: 0.85rem; }
.empty { color: #6b7280; }
.state { padding: 0 0.4rem; border-radius: 0.3rem; }
.state.queued { background: #fff4d6; } .state.indexed { background: #dcf5e3; }
</style>
</head>
<body>
<h1>Knowledge Indexing Service emulator</h1>
<p>Profile: <strong class="profile">${escapeHtml(profile)}</strong> (${escapeHtml(PROFILE_NOTES[profile])})</p>
<p>Read-only view of the emulator's state. JSON: <a href="/_emulator/state">/_emulator/state</a>.
Documents: ${escapeHtml(indexing.total)} (${escapeHtml(indexing.indexed)} indexed, ${escapeHtml(indexing.queued)} queued).</p>
<h2>Connectors</h2>
${table(['Id', 'Name', 'Source', 'Input type', 'Access type', 'Connector/credential pairs'], connectorRows, 'No fully created connector.')}
<h2>Credentials</h2>
${table(['Id', 'Name', 'Source', 'Private key'], credentialRows, 'No credential.')}
<h2>Recent documents</h2>
${table(['Id', 'Semantic identifier', 'Source', 'Pairs', 'Indexing', 'Updated'], documentRows, 'No document yet.')}
</body>
</html>
`;
}
