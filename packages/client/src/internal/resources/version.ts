/**
 * `kis.version()`: the server's release from `GET /version` (deployed servers). A server without
 * the route (one that follows the seed) resolves null rather than failing.
 */
import { isRouteNotFound } from '@kis/rules';
import { APIError } from '../../errors.js';
import type { ServerVersion } from '../../kis-client.js';
import type { RequestOptions } from '../../request-options.js';
import type { CallContext } from '../call.js';

export async function serverVersion(
  ctx: CallContext,
  opts: RequestOptions | undefined,
): Promise<ServerVersion | null> {
  try {
    const data = await ctx.call((fetch) => ctx.api.GET('/version', { fetch }), opts);
    return { backendVersion: data.backend_version };
  } catch (err) {
    if (APIError.isInstance(err) && isRouteNotFound(err.status, err.body)) return null;
    throw err;
  }
}
