/**
 * A stream's lines, ending in LF, CRLF or a lone CR (as node:readline splits them), pulled one
 * chunk at a time: nothing is read ahead of the consumer but the chunk being split, where
 * readline's iterator reads up to a thousand lines ahead, which then outlive the young heap.
 */
import { StringDecoder } from 'node:string_decoder';

export async function* streamLines(input: AsyncIterable<string | Buffer>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  const breaks = /\r\n|\n|\r/g;
  let rest = '';
  for await (const chunk of input) {
    rest += typeof chunk === 'string' ? chunk : decoder.write(chunk);
    let start = 0;
    breaks.lastIndex = 0;
    for (let m = breaks.exec(rest); m !== null; m = breaks.exec(rest)) {
      // a CR that ends the chunk may be the first half of a CRLF: the next chunk tells
      if (m[0] === '\r' && m.index === rest.length - 1) break;
      const line = rest.slice(start, m.index);
      start = breaks.lastIndex;
      yield line;
    }
    rest = rest.slice(start);
  }
  rest += decoder.end();
  if (rest.endsWith('\r')) rest = rest.slice(0, -1);
  else if (rest === '') return;
  yield rest;
}
