/** Pieces of the commands' help texts: the examples block and wrapped paragraphs. */

/** "Examples:" and one `$ command` line per example, as every command's help ends. */
export const EXAMPLES = (lines: readonly string[]) =>
  `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;

/** Words joined into lines of at most `width` characters. */
export function wrap(text: string, width = 96): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines.join('\n');
}
