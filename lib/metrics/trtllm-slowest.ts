/**
 * The latency view's slowest requests of a TensorRT-LLM run, kept while the summary walks the
 * requests: per metric, the `limit` largest values with the request they belong to. The values
 * are the ones the run's distribution and each request's detail read (server TTFT, E2E, TPOT,
 * docs/metrics.md §Request latency from perf metrics), so the table and the charts never differ.
 */
import {
  TRTLLM_LATENCY_METRICS,
  TRTLLM_SLOWEST_LIMIT,
  type TrtllmLatencyMetric,
  type TrtllmSlowestPayload,
  type TrtllmSlowestRow,
} from "@/lib/api/trtllm-charts";

export class TrtllmSlowest {
  private readonly lists: Record<TrtllmLatencyMetric, TrtllmSlowestRow[]> = {
    ttftMs: [],
    e2eMs: [],
    tpotMs: [],
  };
  private readonly counts: Record<TrtllmLatencyMetric, number> = { ttftMs: 0, e2eMs: 0, tpotMs: 0 };
  private total = 0;

  constructor(private readonly limit = TRTLLM_SLOWEST_LIMIT) {}

  /** One request, in the run's order (its `idx`): of equal values, the earlier request is listed first. */
  add(row: TrtllmSlowestRow): void {
    this.total++;
    for (const m of TRTLLM_LATENCY_METRICS) {
      const v = row[m];
      if (v === null || !Number.isFinite(v)) continue;
      this.counts[m]++;
      const list = this.lists[m];
      if (list.length === this.limit && v <= (list[list.length - 1][m] as number)) continue;
      let j = list.length < this.limit ? list.length : this.limit - 1;
      while (j > 0 && (list[j - 1][m] as number) < v) {
        list[j] = list[j - 1];
        j--;
      }
      list[j] = row;
    }
  }

  payload(): TrtllmSlowestPayload {
    return { total: this.total, limit: this.limit, counts: { ...this.counts }, lists: { ...this.lists } };
  }
}
