/** The help of the commands that take PAIR arguments: their examples, then what a PAIR is. */
import { EXAMPLES, wrap } from '../../help-text.js';

const PAIR_HELP =
  'PAIR is a pair id (as `kis connector list` shows it) or the name of its connector (or of the pair); a name that fits several pairs is refused with their ids.';

/** The examples, then what a PAIR is and `more`, wrapped. */
export function pairHelp(examples: readonly string[], more = ''): string {
  return `${EXAMPLES(examples)}\n${wrap(`${PAIR_HELP}${more ? ` ${more}` : ''}`)}\n`;
}
