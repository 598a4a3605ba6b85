import type { RunRow } from "@/lib/store/runs-repo";

/** A `runs` table row with every optional column empty, as a fresh upload leaves it. */
export function runRow(row: Pick<RunRow, "id" | "name" | "status" | "updated_at"> & Partial<RunRow>): RunRow {
  return {
    created_at: 0,
    aggregator_version: 1,
    labels: "[]",
    kinds: "[]",
    backend: null,
    request_count: null,
    summary: null,
    warnings: "[]",
    error: null,
    series: null,
    commit_ref: null,
    branch: null,
    series_order: null,
    summary_ready_at: null,
    drilldown_ready_at: null,
    facts: null,
    fact_edits: null,
    list_model: null,
    list_backend: null,
    list_gpu_model: null,
    list_gpu_count: null,
    list_concurrency: null,
    ...row,
  };
}
