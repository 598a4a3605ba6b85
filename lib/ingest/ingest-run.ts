/**
 * The only writer: turns uploaded files into a run. A run row exists from the start with status
 * `ingesting` (never listed), per-request rows are written in batches as files stream through
 * the analyzers, and one final transaction stores summary, chart payloads, the per-request values
 * verdicts resample, and `ready`. Any failure removes the derived rows and leaves a `failed` run
 * whose raw files can be re-ingested.
 *
 * An upload is ingested live: each recognised file is fed to its analyzer while its bytes are
 * being stored (see LiveIngest), so receiving, storing and parsing overlap. Re-ingest reads the
 * stored files back through the same IngestSession.
 */
import type { Kind } from "@/lib/api/kinds";
import type { Format } from "@/lib/formats/kinds";
import { mergeRequestValues } from "@/lib/metrics/regression/request-values";
import { utf8Text } from "@/lib/formats/text-encoding";
import { startHeartbeat } from "@/lib/store/interrupted-ingest";
import { copiesSettled } from "@/lib/store/pg-copy";
import { sqliteWriterFor } from "@/lib/store/sqlite-writer";
import { filePart } from "@/lib/store/file-part";
import { AIPERF_COLUMN_COMPUTE_VERSIONS } from "@/lib/metrics/aiperf-column-charts";
import { TRTLLM_COLUMN_COMPUTE_VERSIONS } from "@/lib/metrics/trtllm-column-charts";
import {
  clearDerived,
  commitDrilldown,
  commitRun,
  failDrilldown,
  getFiles,
  getRun,
  markRunStatus,
  type FileRow,
} from "@/lib/store/runs-repo";
import type { AnalyzerResult, FileReport, IngestContext, IngestFile } from "./analyzer";
import { createAnalyzers } from "./analyzers";
import { trackDrilldown } from "./drilldown";
import type { IngestDeps } from "./deps";
import { publicMessage } from "./errors";
import { ingestHolds } from "./ingest-holds";
import { AIPERF_ORIGIN_CHART, timelineColumnsOf } from "./timeline-columns";
import { mergeFacts } from "./merge-facts";
import { mergeCharts, mergeResults, pickBackend, pickRequestCount } from "./merge-results";
import { AGGREGATOR_VERSION } from "./version";

/** The compute version each chart computed on read from a run's columns is stored at. */
const COLUMN_COMPUTE_VERSIONS = { ...AIPERF_COLUMN_COMPUTE_VERSIONS, ...TRTLLM_COLUMN_COMPUTE_VERSIONS };

export interface IngestOutcome {
  status: "ready" | "failed";
  reports: Map<string, FileReport>;
  warnings: string[];
  /** When the summary was committed (epoch ms); null when the ingest failed */
  summaryReadyAt: number | null;
  /** When the drill-down was (epoch ms); null while it is being built or when the ingest failed */
  drilldownReadyAt: number | null;
}

/**
 * One ingest of one run: fresh analyzers, fed file by file in upload order, then one commit.
 * An analyzer that throws fails the whole ingest; later files are no longer analysed.
 */
export class IngestSession {
  readonly reports = new Map<string, FileReport>();
  /** Emptied once `finish` has their results: a drill-down then holds only what its steps keep. */
  private analyzers = createAnalyzers();
  /** The analyzers' tables, kept past their release for a failed ingest's cleanup */
  private readonly analyzerTables = [...new Set(this.analyzers.flatMap((a) => a.tables))];
  private readonly ctx: IngestContext;
  private stopHeartbeat: (() => void) | null = null;
  private failure: unknown = null;
  private current: Promise<void> = Promise.resolve();

  constructor(
    private readonly app: IngestDeps,
    readonly runId: string,
  ) {
    this.ctx = {
      runId,
      db: app.store.db,
      dialect: app.store.dialect,
      limits: {
        maxLineBytes: app.config.maxLineBytes,
        maxJsonDocumentBytes: app.config.maxJsonDocumentBytes,
      },
    };
  }

  get tables(): string[] {
    return [...this.analyzerTables];
  }

  get failed(): boolean {
    return this.failure !== null;
  }

  /** Marks the run ingesting, starts its heartbeat and removes rows of an earlier ingest. */
  async begin(): Promise<void> {
    const db = this.app.store.db;
    await markRunStatus(db, this.runId, "ingesting");
    this.stopHeartbeat = startHeartbeat(db, this.runId, this.app.config.ingestStaleMs);
    try {
      // A re-ingest's earlier columnar files are replaced: their blobs go now, not at collection.
      const unlinked = await clearDerived(db, this.runId, this.tables);
      await this.app.blobs.removeUnused(unlinked).catch(() => []);
    } catch (err) {
      this.end();
      throw err;
    }
  }

  /** Streams one file through its analyzer; never throws (a failure is kept for `finish`). */
  ingest(file: IngestFile): Promise<void> {
    this.current = this.ingestOne(file);
    return this.current;
  }

  private async ingestOne(file: IngestFile): Promise<void> {
    if (this.failure) return;
    const analyzer = this.analyzers.find((a) => a.accepts(file));
    if (!analyzer) return;
    try {
      // Analyzers read UTF-8: a UTF-16 file is decoded on the way (the stored bytes stay as sent).
      const decoded = { ...file, open: async () => utf8Text(await file.open()) };
      this.reports.set(file.id, await analyzer.ingestFile(decoded, this.ctx));
    } catch (err) {
      this.failure = err;
    }
  }

  /**
   * Waits for the file being analysed (at most `timeoutMs`) and for every row it handed to the
   * SQLite writer thread or to a PostgreSQL COPY, so that removing the run's rows afterwards
   * leaves none behind.
   */
  async settle(timeoutMs = 5000): Promise<void> {
    await Promise.race([this.current, new Promise((r) => setTimeout(r, timeoutMs).unref())]);
    await sqliteWriterFor(this.app.store.db)?.idle();
    await copiesSettled(this.app.store.db);
  }

  /**
   * Summarises and commits the run (`ready`, summary ready), or marks it `failed` after any
   * analyzer failure. Drill-down work the analyzers returned is built afterwards
   * (lib/ingest/drilldown.ts): in the background by default, the heartbeat beating until it is
   * stored; before this resolves when the config says "inline".
   */
  async finish(files: FileRow[]): Promise<IngestOutcome> {
    const db = this.app.store.db;
    let drilldown: Promise<number | null> | null = null;
    try {
      if (this.failure) throw this.failure;
      const results: AnalyzerResult[] = [];
      for (const a of this.analyzers) results.push(await a.finish(this.ctx));
      // Nothing reads the analyzers after their finish: what their drill-down steps need, the
      // steps hold (docs/performance.md §Ingest memory of an aiperf upload).
      const analyzerNames = this.analyzers.map((a) => a.name);
      this.analyzers = [];
      const unknown = files.filter((f) => f.kind === "unknown").map((f) => f.name);
      const notes = unknown.length
        ? [
            `not recognised and stored only: ${unknown.slice(0, 10).join(", ")}${unknown.length > 10 ? ` and ${unknown.length - 10} more` : ""}`,
          ]
        : [];
      // Upload-level warnings live on the run row, so a re-ingest repeats them too.
      const run = await getRun(db, this.runId);
      const uploadWarnings = run ? (JSON.parse(run.warnings) as string[]) : [];
      const blocks = mergeResults(results, [...uploadWarnings, ...notes]);
      const steps = results.flatMap((r) => (r.drilldown ? [r.drilldown] : []));
      const holds = ingestHolds();
      const pending = steps.length > 0 || holds.beforeDrilldown !== undefined;
      // The timeline is built from the stored rows once they are final: after the drill-down
      // steps where there are any (aiperf re-anchors its rows there), else with the summary.
      const timelineWithSummary = steps.length === 0;
      await holds.beforeCommit?.();
      const summaryReadyAt = await commitRun(db, this.runId, {
        blocks,
        backend: pickBackend(blocks, results),
        requestCount: pickRequestCount(blocks, results),
        aggregatorVersion: AGGREGATOR_VERSION,
        charts: mergeCharts(results),
        metricValues: mergeRequestValues(
          results.map((r) => r.requestValues),
          results.map((r) => r.requestValuesInFile),
        ),
        timeline: timelineWithSummary ? await timelineColumnsOf(db, this.runId, files, results) : null,
        facts: mergeFacts(
          results.map((r, i) => ({ analyzer: analyzerNames[i], facts: r.facts, backend: r.backend })),
        ),
        files: files.map((f) => {
          const r = this.reports.get(f.id);
          return {
            id: f.id,
            records: r?.records ?? 0,
            skipped: r?.skipped ?? 0,
            warnings: JSON.stringify(r?.warnings ?? []),
            meta: JSON.stringify(r?.meta ?? {}),
          };
        }),
        drilldownPending: pending,
        computeVersions: COLUMN_COMPUTE_VERSIONS,
      });
      const outcome: IngestOutcome = {
        status: "ready",
        reports: this.reports,
        warnings: blocks.warnings,
        summaryReadyAt,
        drilldownReadyAt: pending ? null : summaryReadyAt,
      };
      if (!pending) return outcome;
      // The timeline reads only the charts that carry the run's origin: not the results' whole-run
      // columns (requestValues), which would otherwise stay alive through the drill-down.
      const originCharts = results.flatMap((r) => originChartsOf(r.charts));
      results.length = 0;
      const runId = this.runId;
      const timeline = timelineWithSummary
        ? null
        : (charts: Record<string, unknown>) =>
            timelineColumnsOf(db, runId, files, [...originCharts, { charts }]);
      drilldown = trackDrilldown(this.buildDrilldown(steps, holds.beforeDrilldown, timeline));
      if (this.app.config.drilldown !== "inline") return outcome;
      const readyAt = await drilldown;
      if (readyAt !== null) return { ...outcome, drilldownReadyAt: readyAt };
      const failed = await getRun(db, this.runId);
      return {
        status: "failed",
        reports: this.reports,
        warnings: [failed?.error ?? "ingest failed"],
        summaryReadyAt: null,
        drilldownReadyAt: null,
      };
    } catch (err) {
      const message = "ingest failed: " + publicMessage(err);
      // The full error (stack, paths) goes to the server log only.
      console.error(`[runlens] run ${this.runId}: ingest failed`, err);
      await this.settle().catch(() => {});
      const unlinked = await clearDerived(db, this.runId, this.tables).catch(() => []);
      await this.app.blobs.removeUnused(unlinked).catch(() => []);
      await markRunStatus(db, this.runId, "failed", message).catch(() => {});
      return {
        status: "failed",
        reports: this.reports,
        warnings: [message],
        summaryReadyAt: null,
        drilldownReadyAt: null,
      };
    } finally {
      // The drill-down ends the heartbeat itself once it is stored.
      if (!drilldown) this.end();
    }
  }

  /**
   * Builds and stores the drill-down of a committed run; resolves with its ready stamp, or null
   * when it failed (the run is then failed, see failDrilldown) or the run was no longer waiting
   * for it (deleted, or failed by a sweeper that took the heartbeat for stopped). Never throws.
   */
  private async buildDrilldown(
    steps: Array<() => Promise<Record<string, unknown>>>,
    hold: (() => Promise<void>) | undefined,
    timelineOf: ((charts: Record<string, unknown>) => ReturnType<typeof timelineColumnsOf>) | null,
  ): Promise<number | null> {
    const db = this.app.store.db;
    try {
      await hold?.();
      const charts = await runSteps(steps);
      const timeline = timelineOf ? await timelineOf(charts) : null;
      return (await commitDrilldown(db, this.runId, charts, timeline)) ? Date.now() : null;
    } catch (err) {
      console.error(`[runlens] run ${this.runId}: drill-down failed`, err);
      await failDrilldown(db, this.runId, "ingest failed: " + publicMessage(err)).catch(() => {});
      return null;
    } finally {
      this.end();
    }
  }

  /**
   * Stops the heartbeat (the run is left as it is). The run's heavy work is over (its drill-down
   * is ready, or it ended otherwise): the blob store may now gzip the raw files it stored as they
   * came (lib/store/fs-blob-store.ts), in the background.
   */
  end(): void {
    this.stopHeartbeat?.();
    this.stopHeartbeat = null;
    void this.app.blobs.compressPending?.();
  }
}

/**
 * Runs the drill-down steps in order and merges their charts. Each step leaves the list before it
 * runs, so what it holds (an aiperf run's request columns) is garbage once it is done, before the
 * timeline is built.
 */
export async function runSteps(
  steps: Array<() => Promise<Record<string, unknown>>>,
): Promise<Record<string, unknown>> {
  const charts: Record<string, unknown> = {};
  for (let step = steps.shift(); step; step = steps.shift()) Object.assign(charts, await step());
  return charts;
}

/** The one chart of an analyzer's results that the timeline reads (the run's origin), when it has it. */
function originChartsOf(
  charts: Record<string, unknown> | undefined,
): Array<{ charts: Record<string, unknown> }> {
  const chart = charts?.[AIPERF_ORIGIN_CHART];
  return chart === undefined ? [] : [{ charts: { [AIPERF_ORIGIN_CHART]: chart } }];
}

/** Re-ingest (and the fallback for uploads not ingested live): reads the run's stored files back. */
export async function ingestRun(app: IngestDeps, runId: string): Promise<IngestOutcome> {
  const session = new IngestSession(app, runId);
  let files: FileRow[] = [];
  try {
    await session.begin();
    files = await getFiles(app.store.db, runId);
  } catch (err) {
    session.end();
    console.error(`[runlens] run ${runId}: ingest failed`, err);
    await markRunStatus(app.store.db, runId, "failed", "ingest failed: " + publicMessage(err)).catch(
      () => {},
    );
    return {
      status: "failed",
      reports: session.reports,
      warnings: ["ingest failed: " + publicMessage(err)],
      summaryReadyAt: null,
      drilldownReadyAt: null,
    };
  }
  for (const row of files)
    await session.ingest({
      id: row.id,
      ord: row.ord,
      name: row.name,
      kind: row.kind as Kind,
      format: row.format as Format,
      bytes: row.bytes,
      sha256: row.sha256,
      part: filePart(row),
      open: () => app.blobs.open(row.sha256),
    });
  return session.finish(files);
}
