/**
 * Operations whose path differs between servers (the rule book's `ROUTE_VARIANTS`: association
 * and upload). A call goes to deployed servers' path first, as that is what the servers people run
 * have, and to the seed's only when the server answers that it has no such route. The path that
 * answered is remembered per client, so later calls go straight to it.
 */
import { isRouteNotFound, ROUTE_VARIANTS, type RouteGroup } from '@kis/rules';
import type { Answer } from './http.js';

/** The index in `ROUTE_VARIANTS[group]` of the path that answered, per group (one per client). */
export type RouteMemory = Partial<Record<RouteGroup, number>>;

/**
 * `send(i)` for the group's paths in order, starting at the remembered one, until an answer is not
 * a route-not-found (or no path is left): that answer is returned and its path remembered.
 */
export async function onServedRoute<A extends Answer<unknown>>(
  memory: RouteMemory,
  group: RouteGroup,
  send: (index: number) => Promise<A>,
): Promise<A> {
  const last = ROUTE_VARIANTS[group].length - 1;
  for (let index = memory[group] ?? 0; ; index++) {
    const answer = await send(index);
    const missing = isRouteNotFound(answer.response.status, answer.error);
    if (!missing) memory[group] = index;
    if (!missing || index >= last) return answer;
  }
}
