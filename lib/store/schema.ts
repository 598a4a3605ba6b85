/**
 * Table types for Kysely. One interface per table; migrations in ./migrations create them for
 * both dialects. JSON columns are stored as text (SQLite has no JSON type; PostgreSQL could, but
 * one representation keeps the code path identical). Times are epoch milliseconds.
 */
import type { Generated } from "kysely";
import type { AiperfTables } from "./tables/aiperf";
import type { MetricValuesTables } from "./tables/metric-values";
import type { RunColumnFilesTables } from "./tables/run-column-files";
import type { ServerMetricsTables } from "./tables/server-metrics";
import type { SweepTables } from "./tables/sweeps";
import type { TimelineColumnsTables } from "./tables/timeline-columns";
import type { TrtllmTables } from "./tables/trtllm";

export interface RunsTable {
  id: string;
  name: string;
  created_at: number;
  status: "ingesting" | "ready" | "failed";
  aggregator_version: number;
  /** JSON array of strings */
  labels: string;
  /** JSON array of detected kinds (unique, recognised only) */
  kinds: string;
  backend: string | null;
  request_count: number | null;
  /** The precomputed run summary (docs/http-api.md), JSON; null until ingest committed */
  summary: string | null;
  /** Upload-level warnings, JSON array of strings */
  warnings: string;
  error: string | null;
  updated_at: number;
  /** The series the run belongs to, its commit and branch (migration 007); null when not set */
  series: string | null;
  commit_ref: string | null;
  branch: string | null;
  /** The run's place in its series as the uploader gave it (migration 011); null: its upload time */
  series_order: string | null;
  /** When the summary was committed and when the drill-down rows and lists were (migration 012); null: not yet */
  summary_ready_at: number | null;
  drilldown_ready_at: number | null;
  /** Facts read from the files at ingest (ExtractedFacts, JSON); null before migration 005 */
  facts: string | null;
  /** A user's fact corrections (FactEdits, JSON); never touched by ingest */
  fact_edits: string | null;
  /** The effective facts the run list sorts and filters by (edits over extracted) */
  list_model: string | null;
  list_backend: string | null;
  list_gpu_model: string | null;
  list_gpu_count: number | null;
  list_concurrency: number | null;
}

export interface RunLabelsTable {
  run_id: string;
  label: string;
}

export interface FilesTable {
  id: string;
  run_id: string;
  ord: number;
  name: string;
  kind: string;
  format: string;
  bytes: number;
  sha256: string;
  records: number;
  skipped: number;
  /** JSON array of {line?, message} */
  warnings: string;
  /** JSON object: whatever the analyzer wants to remember about the file (role, model, …) */
  meta: string;
}

/** Precomputed chart payloads, one row per (run, key); served by chart routes as-is. */
export interface ChartDataTable {
  run_id: string;
  key: string;
  data: string;
  /** The `version` of the payload's chart when it was written (lib/api/chart-catalog.ts) */
  version: number;
  /**
   * The version of the code that computed it, for a chart computed from the run's columns
   * (lib/metrics/aiperf-column-charts.ts); 1 for every other (migration 023's default)
   */
  compute_version: Generated<number>;
}

/** PostgreSQL mode only: blob bytes in ordered chunks, gzip-compressed or as they came. */
export interface BlobChunksTable {
  blob_key: string;
  seq: number;
  data: Uint8Array;
  /** When the chunk was written, or the blob last reused (epoch ms; null before migration 004) */
  written_at: number | null;
  /** `identity` or `gzip` (lib/store/blob-encoding.ts); null before migration 020: gzip */
  encoding: string | null;
}

/** An upload's hold on a blob until its file rows are committed (see lib/store/blob-leases.ts). */
export interface BlobLeasesTable {
  id: string;
  sha256: string;
  /** Renewed while the upload lives; a crashed instance's leases lapse */
  expires_at: number;
}

export interface MetaTable {
  key: string;
  value: string;
}

export interface CoreTables {
  runs: RunsTable;
  run_labels: RunLabelsTable;
  files: FilesTable;
  chart_data: ChartDataTable;
  blob_chunks: BlobChunksTable;
  blob_leases: BlobLeasesTable;
  meta: MetaTable;
}

/** Every table: the core plus the per-request row tables each analyzer declares beside it. */
export type Database = CoreTables &
  TrtllmTables &
  AiperfTables &
  ServerMetricsTables &
  SweepTables &
  MetricValuesTables &
  RunColumnFilesTables &
  TimelineColumnsTables;
