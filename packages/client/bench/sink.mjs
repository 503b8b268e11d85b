// A tiny ingestion sink on 127.0.0.1 for the benchmarks, run in its own process so that the
// client's CPU time and memory are measured alone. Service time per request: KIS_SINK_DELAY_MS.
import { createServer } from 'node:http';

const delay = Number(process.env.KIS_SINK_DELAY_MS ?? 0);
const answer = (id) => {
  const body = `{"document_id":${JSON.stringify(id)},"already_existed":false}`;
  return body;
};
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let id = 'x';
    if (req.method === 'POST') {
      try {
        id = JSON.parse(Buffer.concat(chunks).toString('utf8')).document?.id ?? 'x';
      } catch {
        res.writeHead(400).end();
        return;
      }
    }
    const body = req.method === 'POST' ? answer(id) : '[]';
    const send = () => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
    };
    if (delay > 0) setTimeout(send, delay);
    else send();
  });
});
server.keepAliveTimeout = 120_000;
server.headersTimeout = 130_000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));
process.on('disconnect', () => process.exit(0));
