/** The per-request values verdicts resample (created by ../migrations/009-metric-values.ts). */

/** One run's values of one verdict metric: `count` float64s, ascending, little-endian. */
export interface RunMetricValuesTable {
  run_id: string;
  /** The per-request field (`ttft`, `itl`, `e2e`, `server_ttft`, `server_e2e`) */
  metric: string;
  count: number;
  values: Uint8Array;
}

export interface MetricValuesTables {
  run_metric_values: RunMetricValuesTable;
}
