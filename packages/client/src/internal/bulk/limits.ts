/** Default ceiling of a bulk run's adaptive limit: the limiter finds the server's knee below it. */
export const DEFAULT_MAX_CONCURRENCY = 64;
