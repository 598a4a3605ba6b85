/**
 * The plug-in contract of the ingest pipeline. One analyzer per input family (TRT-LLM perf
 * metrics, aiperf, server metrics, engine config). For each run, the pipeline makes fresh
 * analyzer instances, streams every accepted file through `ingestFile` (file order), then calls
 * `finish` once to get the summary blocks, endpoint rows and chart payloads it stores.
 * Analyzers never touch the raw upload; they read decompressed bytes from `file.open()`.
 */
import type { Readable } from "node:stream";
import type { ExtractedFacts } from "@/lib/api/run-facts";
import type { Collectors, CollectorsInferredFrom, EndpointRow, SummaryBlocks } from "@/lib/api/schemas";
import type { FileWarning } from "@/lib/formats/json-lines";
import type { Kind } from "@/lib/api/kinds";
import type { Format } from "@/lib/formats/kinds";
import type { RequestValues } from "@/lib/metrics/regression/request-values";
import type { Db } from "@/lib/store/db";
import type { DialectName } from "@/lib/store/dialect";

export interface IngestFile {
  id: string;
  ord: number;
  name: string;
  kind: Kind;
  format: Format;
  bytes: number;
  sha256: string;
  /**
   * The one benchmark of a file holding several that this run holds (0-based, in file order),
   * when an upload of such a file was split into one run per benchmark; absent: the whole file.
   */
  part?: number;
  /** Fresh stream of the file's decompressed bytes each call. */
  open(): Promise<Readable>;
}

export interface FileReport {
  records: number;
  skipped: number;
  warnings: FileWarning[];
  /** Shown in the Files view and kept in files.meta (e.g. detected role, model, tool version). */
  meta?: Record<string, string | number | boolean | null>;
}

/** What an analyzer reports of a document larger than the JSON document limit: stored, not read. */
export function tooLargeDocument(): FileReport {
  return {
    records: 0,
    skipped: 1,
    warnings: [{ message: "larger than the JSON document limit; stored but not read" }],
  };
}

export interface IngestContext {
  runId: string;
  db: Db;
  dialect: DialectName;
  limits: IngestLimits;
}

export interface IngestLimits {
  maxLineBytes: number;
  /** Largest single JSON document read whole (summary, server-metrics JSON). */
  maxJsonDocumentBytes: number;
}

export interface AnalyzerResult {
  requests?: SummaryBlocks["requests"];
  timeBreakdown?: SummaryBlocks["timeBreakdown"];
  serverMetrics?: SummaryBlocks["serverMetrics"];
  throughput?: SummaryBlocks["throughput"];
  collectors?: Partial<Collectors>;
  /** The evidence of collectors this analyzer found on only by a flag's implication */
  collectorsInferredFrom?: CollectorsInferredFrom;
  /** Merged with other analyzers' rows by `endpoint` (already normalised, see lib/formats/endpoint.ts). */
  endpoints?: Array<Partial<EndpointRow> & Pick<EndpointRow, "endpoint">>;
  info?: SummaryBlocks["info"];
  /** Chart payloads stored as-is and served by /api/runs/{id}/charts/{key}; ≤ 2,000 points per series. */
  charts?: Record<string, unknown>;
  warnings?: string[];
  /** Shown in the runs table */
  backend?: string | null;
  requestCount?: number | null;
  /** Run facts this analyzer's files state, each with its source (docs/metrics.md §Run facts) */
  facts?: ExtractedFacts;
  /**
   * The per-request latency values of the rows this analyzer wrote, by verdict field: an analyzer
   * that writes `aiperf_requests` or `trtllm_requests` rows returns them, or verdicts on the run
   * find none (docs/metrics.md §Regressions).
   */
  requestValues?: RequestValues;
  /**
   * `requestValues` are also in the run's aiperf request file: a field no other analyzer gives is
   * not stored in the catalog, the verdict reads it from the file (lib/store/series-repo.ts).
   */
  requestValuesInFile?: boolean;
  /**
   * Work only the drill-down views need (lib/ingest/drilldown.ts), run after the summary is
   * committed; returns more chart payloads, stored with the drill-down's ready stamp.
   */
  drilldown?: () => Promise<Record<string, unknown>>;
}

export interface Analyzer {
  readonly name: string;
  /** Per-request row tables this analyzer writes (rows keyed by run_id); cleared on re-ingest and delete. */
  readonly tables: readonly string[];
  accepts(file: IngestFile): boolean;
  ingestFile(file: IngestFile, ctx: IngestContext): Promise<FileReport>;
  finish(ctx: IngestContext): Promise<AnalyzerResult>;
}
