/**
 * Catalog queries: runs, their files and labels, chart payloads. The ingest pipeline is the only
 * writer of summaries and rows; route handlers read through here.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { sql, type Insertable } from "kysely";
import type { ExtractedFacts } from "@/lib/api/run-facts";
import type { SummaryBlocks } from "@/lib/api/schemas";
import { isChartPiece } from "@/lib/api/chart-catalog";
import { discardAiperfStages } from "./columnar/aiperf-request-file";
import { discardTrtllmRequestWriters } from "./columnar/trtllm-request-file";
import { discardTimeEventWriters } from "./columnar/trtllm-time-events-file";
import type { Db, Trx } from "./db";
import { writeMetricValues } from "./metric-values";
import { extractedFactColumns } from "./run-facts";
import { PayloadText, storedText, storedVersionOf } from "./chart-payloads";
import type { ChartDataTable, FilesTable, RunsTable } from "./schema";
import { storeText } from "./store-text";
import { MAX_TIMELINE_BYTES, writeTimelineColumns, type StoredColumns } from "./timeline-columns";

export type RunRow = RunsTable;
export type FileRow = FilesTable;

export interface NewRun {
  id: string;
  name: string;
  labels: string[];
  createdAt: number;
  aggregatorVersion: number;
  /** Upload-level warnings (skipped archive entries…): kept with the run, repeated in every summary. */
  warnings?: string[];
}

/**
 * Labels as stored: made storable before they are written as JSON and as label rows, so both say
 * the same, and made storable before de-duplication, so two labels that differ only there are one.
 */
function storedLabels(labels: readonly string[]): string[] {
  return [...new Set(labels.map(storeText))];
}

export async function insertRun(db: Db, newRun: NewRun, files: FileRow[]): Promise<void> {
  const run = { ...newRun, labels: storedLabels(newRun.labels) };
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("runs")
      .values({
        id: run.id,
        name: run.name,
        created_at: run.createdAt,
        updated_at: run.createdAt,
        status: "ingesting",
        aggregator_version: run.aggregatorVersion,
        labels: JSON.stringify(run.labels),
        kinds: JSON.stringify([...new Set(files.map((f) => f.kind).filter((k) => k !== "unknown"))]),
        backend: null,
        request_count: null,
        summary: null,
        warnings: JSON.stringify(run.warnings ?? []),
        error: null,
      })
      .execute();
    if (run.labels.length > 0)
      await trx
        .insertInto("run_labels")
        .values(run.labels.map((label) => ({ run_id: run.id, label })))
        .execute();
    if (files.length > 0) await trx.insertInto("files").values(files).execute();
  });
}

/**
 * The catalog half of a live ingest's upload, written once every file has been stored: the run's
 * final name, labels, kinds and upload warnings, and its file rows.
 */
export async function finishUploadCatalog(
  db: Db,
  id: string,
  finished: { name: string; labels: string[]; warnings: string[]; files: FileRow[] },
): Promise<void> {
  const upload = { ...finished, labels: storedLabels(finished.labels) };
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("runs")
      .set({
        name: upload.name,
        labels: JSON.stringify(upload.labels),
        kinds: JSON.stringify([...new Set(upload.files.map((f) => f.kind).filter((k) => k !== "unknown"))]),
        warnings: JSON.stringify(upload.warnings),
        updated_at: Date.now(),
      })
      .where("id", "=", id)
      .execute();
    await replaceLabels(trx, id, upload.labels);
    for (let i = 0; i < upload.files.length; i += 500)
      await trx
        .insertInto("files")
        .values(upload.files.slice(i, i + 500))
        .execute();
  });
}

export async function getRun(db: Db, id: string): Promise<RunRow | undefined> {
  return db.selectFrom("runs").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function getFiles(db: Db, runId: string): Promise<FileRow[]> {
  return db.selectFrom("files").selectAll().where("run_id", "=", runId).orderBy("ord").execute();
}

export async function getFile(db: Db, runId: string, fileId: string): Promise<FileRow | undefined> {
  return db
    .selectFrom("files")
    .selectAll()
    .where((eb) => eb.and({ run_id: runId, id: fileId }))
    .executeTakeFirst();
}

export async function updateRunMeta(
  db: Db,
  id: string,
  patch: { name?: string; labels?: string[] },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const set: Partial<RunRow> = { updated_at: Date.now() };
    if (patch.name !== undefined) set.name = patch.name;
    const labels = patch.labels && storedLabels(patch.labels);
    if (labels !== undefined) set.labels = JSON.stringify(labels);
    await trx.updateTable("runs").set(set).where("id", "=", id).execute();
    if (labels !== undefined) await replaceLabels(trx, id, labels);
  });
}

async function replaceLabels(db: Db, id: string, labels: string[]): Promise<void> {
  await db.deleteFrom("run_labels").where("run_id", "=", id).execute();
  if (labels.length > 0)
    await db
      .insertInto("run_labels")
      .values(labels.map((label) => ({ run_id: id, label })))
      .execute();
}

export interface FinishedRun {
  blocks: SummaryBlocks;
  backend: string | null;
  requestCount: number | null;
  aggregatorVersion: number;
  files: Array<Pick<FileRow, "id" | "records" | "skipped" | "warnings" | "meta">>;
  charts: Record<string, unknown>;
  /** Run facts read from the files; a user's edits stay as they are */
  facts?: ExtractedFacts;
  /** Each verdict metric's per-request values, ascending (see ./metric-values.ts) */
  metricValues?: ReadonlyMap<string, Float64Array>;
  /** Drill-down work follows (`commitDrilldown`): the run is ready, its drill-down not yet */
  drilldownPending?: boolean;
  /**
   * The compute version of each payload computed from the run's columns, by key (stored as
   * `compute_version`, migration 023); a key not named is stored at 1
   */
  computeVersions?: Readonly<Record<string, number>>;
  /** The request timeline's columns, when the run has per-request rows (see ./timeline-columns.ts) */
  timeline?: { count: number; stored: StoredColumns; firstWindow?: string | null } | null;
}

const CHARTS_PER_INSERT = 8;

const storeTimeline = (trx: Db, id: string, t: NonNullable<FinishedRun["timeline"]>) =>
  writeTimelineColumns(trx, id, t.count, t.stored, MAX_TIMELINE_BYTES, t.firstWindow ?? null);

/**
 * Commits an ingest: summary, file reports, chart payloads, per-request metric values, the
 * request timeline's columns and the `ready` status in one transaction.
 */
export async function commitRun(db: Db, id: string, done: FinishedRun): Promise<number> {
  const ingestedAt = Date.now();
  // A large run's payloads took most of a second to serialise in one go, a second in which the
  // server answered nothing; and on SQLite every read waits for the transaction's one connection.
  // So they are serialised before the transaction, a turn of the event loop after each one; the
  // text is held until the commit, beside the payloads that are held until then anyway.
  // A payload kept packed (`PayloadText`) is unpacked only as its rows are inserted, a few at a time.
  const charts: Array<Omit<Insertable<ChartDataTable>, "data"> & { data: string | PayloadText }> = [];
  for (const [key, data] of Object.entries(done.charts)) {
    charts.push({
      run_id: id,
      key,
      data: data instanceof PayloadText ? data : JSON.stringify(data),
      version: storedVersionOf(key),
      compute_version: done.computeVersions?.[key] ?? 1,
    });
    await nextTurn();
  }
  const summary = JSON.stringify({ ...done.blocks, ingestedAt });
  await db.transaction().execute(async (trx) => {
    for (const f of done.files)
      await trx
        .updateTable("files")
        .set({ records: f.records, skipped: f.skipped, warnings: f.warnings, meta: f.meta })
        .where("id", "=", f.id)
        .execute();
    await trx.deleteFrom("chart_data").where("run_id", "=", id).execute();
    for (let i = 0; i < charts.length; i += CHARTS_PER_INSERT)
      await trx
        .insertInto("chart_data")
        .values(
          charts
            .slice(i, i + CHARTS_PER_INSERT)
            .map((c) => ({ ...c, data: typeof c.data === "string" ? c.data : c.data.text })),
        )
        .execute();
    if (done.metricValues) await writeMetricValues(trx, id, done.metricValues);
    if (done.timeline) await storeTimeline(trx, id, done.timeline);
    const edits = await trx.selectFrom("runs").select("fact_edits").where("id", "=", id).executeTakeFirst();
    await trx
      .updateTable("runs")
      .set({
        status: "ready",
        // The stamp versions the chart URLs: re-ingest rewrites a run's charts in place.
        summary,
        backend: done.backend,
        request_count: done.requestCount,
        aggregator_version: done.aggregatorVersion,
        error: null,
        updated_at: ingestedAt,
        summary_ready_at: ingestedAt,
        drilldown_ready_at: done.drilldownPending ? null : ingestedAt,
        ...extractedFactColumns(done.facts ?? {}, edits?.fact_edits ?? null),
      })
      .where("id", "=", id)
      .execute();
  });
  return ingestedAt;
}

export async function markRunStatus(
  db: Db,
  id: string,
  status: RunRow["status"],
  error: string | null = null,
): Promise<void> {
  // A run that is not ready has neither its summary nor its drill-down to show.
  const readiness = status === "ready" ? {} : { summary_ready_at: null, drilldown_ready_at: null };
  await db
    .updateTable("runs")
    .set({ status, error, updated_at: Date.now(), ...readiness })
    .where("id", "=", id)
    .execute();
}

/**
 * Stores the drill-down half of a committed ingest (chart payloads only the drill-down views
 * read) and stamps `drilldown_ready_at`, in one transaction. Only while the run is still ready
 * and waiting for it: a run the sweeper failed, re-ingested or deleted meanwhile gets nothing.
 * Returns whether it was stored.
 */
export async function commitDrilldown(
  db: Db,
  id: string,
  charts: Record<string, unknown>,
  timeline: FinishedRun["timeline"] = null,
): Promise<boolean> {
  const rows: Array<Insertable<ChartDataTable>> = [];
  for (const [key, data] of Object.entries(charts)) {
    rows.push({ run_id: id, key, data: storedText(data), version: storedVersionOf(key) });
    await nextTurn();
  }
  return db.transaction().execute(async (trx) => {
    const now = Date.now();
    const stamped = await trx
      .updateTable("runs")
      .set({ drilldown_ready_at: now, updated_at: now })
      .where("id", "=", id)
      .where("status", "=", "ready")
      .where("drilldown_ready_at", "is", null)
      .where("summary_ready_at", "is not", null)
      .executeTakeFirst();
    if (Number(stamped.numUpdatedRows) !== 1) return false;
    if (timeline) await storeTimeline(trx, id, timeline);
    if (rows.length > 0) {
      await trx
        .deleteFrom("chart_data")
        .where("run_id", "=", id)
        .where(
          "key",
          "in",
          rows.map((r) => r.key),
        )
        .execute();
      for (let i = 0; i < rows.length; i += CHARTS_PER_INSERT)
        await trx
          .insertInto("chart_data")
          .values(rows.slice(i, i + CHARTS_PER_INSERT))
          .execute();
    }
    return true;
  });
}

/**
 * A drill-down that could not be built fails its run: status, message, and the summary and chart
 * payloads already shown go, so the run is never shown half built; re-ingest completes it.
 */
export async function failDrilldown(db: Db, id: string, message: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("runs")
      .set({
        status: "failed",
        error: message,
        summary: null,
        summary_ready_at: null,
        drilldown_ready_at: null,
        updated_at: Date.now(),
      })
      .where("id", "=", id)
      .where("status", "=", "ready")
      .where("drilldown_ready_at", "is", null)
      .execute();
    await trx.deleteFrom("chart_data").where("run_id", "=", id).execute();
  });
}

/** A committed run whose drill-down is still being built (see `commitDrilldown`). */
export function drilldownPending(
  run: Pick<RunRow, "status" | "summary_ready_at" | "drilldown_ready_at">,
): boolean {
  return run.status === "ready" && run.summary_ready_at !== null && run.drilldown_ready_at === null;
}

/**
 * Removes every derived row of a run (per-request tables, chart payloads), keeping catalog and
 * files. Returns the blob hashes of the columnar files it unlinked: whether they can go is for the
 * blob store's locked check after this commits (`BlobStore.removeUnused`), else the collector.
 */
export async function clearDerived(db: Db, id: string, tables: readonly string[]): Promise<string[]> {
  discardAiperfStages(id);
  discardTimeEventWriters(id);
  discardTrtllmRequestWriters(id);
  const unlinked = await db.transaction().execute((trx) => deleteDerived(trx, id, tables));
  return [...new Set(unlinked)];
}

/** The derived rows of clearDerived, in the caller's transaction; returns the unlinked columnar blobs. */
async function deleteDerived(trx: Trx, id: string, tables: readonly string[]): Promise<string[]> {
  const columnFiles = await trx
    .selectFrom("run_column_files")
    .select("sha256")
    .where("run_id", "=", id)
    .execute();
  await trx.deleteFrom("run_column_files").where("run_id", "=", id).execute();
  for (const table of tables) await sql`delete from ${sql.table(table)} where run_id = ${id}`.execute(trx);
  await trx.deleteFrom("chart_data").where("run_id", "=", id).execute();
  await trx.deleteFrom("run_metric_values").where("run_id", "=", id).execute();
  await trx.deleteFrom("run_timeline_columns").where("run_id", "=", id).execute();
  return columnFiles.map((f) => f.sha256);
}

/**
 * Deletes a run and everything derived from it; returns the blob hashes its files named. Whether
 * another run still needs them is for the blob store's locked check, after this commits: inside
 * this transaction a concurrent delete of another run sharing a blob is not yet visible.
 */
export async function deleteRun(db: Db, id: string, tables: readonly string[]): Promise<string[]> {
  discardAiperfStages(id);
  discardTimeEventWriters(id);
  discardTrtllmRequestWriters(id);
  return db.transaction().execute(async (trx) => {
    const files = await trx.selectFrom("files").select("sha256").where("run_id", "=", id).execute();
    const columnFiles = await deleteDerived(trx, id, tables);
    await trx.deleteFrom("run_labels").where("run_id", "=", id).execute();
    await trx.deleteFrom("sweep_runs").where("run_id", "=", id).execute();
    await trx.deleteFrom("files").where("run_id", "=", id).execute();
    await trx.deleteFrom("runs").where("id", "=", id).execute();
    return [...new Set([...files.map((f) => f.sha256), ...columnFiles])];
  });
}

/** The chart keys stored for each run, sorted; every asked-for run has a list, empty when it has none. */
export async function chartKeys(db: Db, runIds: string[]): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = Object.fromEntries(runIds.map((id) => [id, []]));
  if (runIds.length === 0) return out;
  const rows = await db
    .selectFrom("chart_data")
    .select(["run_id", "key"])
    .where("run_id", "in", runIds)
    .orderBy("key")
    .execute();
  // A pieced list's pieces are parts of one stored list, not charts (lib/api/chart-catalog.ts).
  for (const r of rows) if (!isChartPiece(r.key)) out[r.run_id]?.push(r.key);
  return out;
}

export async function getMeta(db: Db, key: string): Promise<string | undefined> {
  return (await db.selectFrom("meta").select("value").where("key", "=", key).executeTakeFirst())?.value;
}

export async function setMeta(db: Db, key: string, value: string): Promise<void> {
  await db
    .insertInto("meta")
    .values({ key, value })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value }))
    .execute();
}
