/**
 * Resources whose code loads on first use: each method imports the module that implements the
 * resource, builds it once, and calls its method of the same name. Every such method returns a
 * promise, so the caller cannot tell the difference.
 */

type AsyncMethods = Record<string, (...args: never[]) => Promise<unknown>>;

/** `R`'s methods, each loading `build()` on its first call (every call shares one load). */
export function onFirstUse<R extends AsyncMethods>(
  build: () => Promise<R>,
  names: readonly (keyof R & string)[],
): R {
  let loading: Promise<R> | undefined;
  const resource: Record<string, (...args: never[]) => Promise<unknown>> = {};
  for (const name of names) {
    resource[name] = async (...args) => {
      loading ??= build();
      const method = (await loading)[name];
      if (typeof method !== 'function') throw new TypeError(`the loaded resource has no ${name}`);
      return method(...args);
    };
  }
  return resource as R;
}
