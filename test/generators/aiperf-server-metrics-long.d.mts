/** The real export the long one is shaped from. */
export declare const REAL_EXPORT: string;
/** Writes a long aiperf server_metrics_export.json of `endpoints` × `seconds` one-second timeslices. */
export declare function writeLongServerMetricsJson(
  file: string,
  opts?: { endpoints?: number; seconds?: number; seed?: number },
): Promise<void>;
