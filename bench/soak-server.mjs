// The soak benchmark's server (bench/soak.mjs), in a process of its own: an ingestion endpoint
// answering after KIS_SOAK_SERVICE_MS, which remembers every id it stored (to count documents sent
// again after their acknowledgement) and, per phase, how many POSTs it answered and when each tenth
// of the phase's total was answered (a phase may send ids an earlier one stored: repeated runs).
import { createServer } from 'node:http';

const serviceMs = Number(process.env.KIS_SOAK_SERVICE_MS ?? 2);
const stored = new Set();
const state = { requests: 0, answered: 0, resent: 0, firstRequestAt: 0, marks: [] };
let markEvery = Number.POSITIVE_INFINITY;

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    state.requests++;
    if (state.firstRequestAt === 0) state.firstRequestAt = Date.now();
    if (req.method !== 'POST') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[]');
      return;
    }
    setTimeout(() => {
      const id = JSON.parse(Buffer.concat(chunks).toString('utf8')).document.id;
      if (stored.has(id)) state.resent++;
      else stored.add(id);
      state.answered++;
      if (state.answered % markEvery === 0) state.marks.push(Date.now());
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ document_id: id, already_existed: false }));
    }, serviceMs);
  });
});
server.keepAliveTimeout = 120_000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));

process.on('message', (m) => {
  if (m.type === 'phase') {
    // a new phase: count from here (what is stored stays stored)
    markEvery = Math.max(1, Math.floor(m.total / 10));
    state.requests = 0;
    state.answered = 0;
    state.resent = 0;
    state.firstRequestAt = 0;
    state.marks = [];
    process.send({ type: 'ok' });
  } else if (m.type === 'stats') {
    process.send({ type: 'stats', stored: stored.size, ...state });
  }
});
process.on('disconnect', () => process.exit(0));
