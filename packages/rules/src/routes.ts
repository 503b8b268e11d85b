/**
 * Operations whose route differs between servers (docs/deployed-servers.md, "Routes"): the paths
 * of each, in the order a client tries them. Deployed servers' path comes first: it is what the
 * servers people run have; the seed's path is the fallback when a server answers that it has no
 * such route (`isRouteNotFound`). The spec has an operation for each path, and each names its
 * group in `x-kis-variant-of`.
 */
export const ROUTE_VARIANTS = Object.freeze({
  /** Associate a credential with a connector (PUT). */
  associate: Object.freeze([
    '/manage/connector/{connector_id}/credential/{credential_id}',
    '/manage/admin/connector/{connector_id}/credential/{credential_id}',
  ] as const),
  /** Upload files to the file store (POST, multipart). */
  upload: Object.freeze(['/user/projects/file/upload', '/user/file/upload'] as const),
});

export type RouteGroup = keyof typeof ROUTE_VARIANTS;
