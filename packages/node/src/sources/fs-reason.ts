/** Short reasons for file-system and other errors, for one-line messages. */

/** An error's message on one line. */
export function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\n\s*/g, ' ').trim();
}

/** A short reason for a file-system error ("no such file or directory"). */
export function fsReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory, expected a file';
    case 'ENOTDIR':
      return 'not a directory';
    default:
      return oneLine(error);
  }
}
