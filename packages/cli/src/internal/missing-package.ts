/** Optional peers of the CLI (`@kis/emulator`, `@kis/queue`) are loaded with `import()` when used. */

/** Whether `error`, thrown by an `import()`, says the package `name` is not installed. */
export function isMissingPackage(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown })?.code;
  const message = String((error as Error)?.message ?? '');
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && message.includes(name);
}
