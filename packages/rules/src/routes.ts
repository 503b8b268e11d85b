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
  /**
   * Make an account a manager of a user group: the main line's `PUT .../manager`
   * (`{user_id, is_manager}`), else release 4.6.1's `POST .../set-curator` (`{user_id, is_curator}`).
   */
  groupManager: Object.freeze([
    '/manage/admin/user-group/{user_group_id}/manager',
    '/manage/admin/user-group/{user_group_id}/set-curator',
  ] as const),
  /**
   * Share document sets with a user group: the main line's `PATCH .../document-sets`; release
   * 4.6.1 has no such call, so a client replaces each set's `groups` with the set `PATCH`.
   */
  groupDocumentSets: Object.freeze([
    '/manage/admin/user-group/{user_group_id}/document-sets',
    '/manage/admin/document-set',
  ] as const),
});

export type RouteGroup = keyof typeof ROUTE_VARIANTS;
