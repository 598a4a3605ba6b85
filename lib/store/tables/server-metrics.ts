/** Tables owned by the server-metrics analyzer (created by its migration in ../migrations). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ServerMetricsTables {}
