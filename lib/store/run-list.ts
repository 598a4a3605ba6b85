/**
 * The run list: search, labels, run-fact filters and sorts, pagination, and the fields a listed
 * run shows. Newest first pages by keyset on (created_at, id); a sort by a fact pages by offset,
 * its unknown values last in either direction.
 */
import { sql } from "kysely";
import type { RunListParams } from "@/lib/api/query-options";
import type { RunHead, RunListItem, RunSort } from "@/lib/api/schemas";
import type { Db } from "./db";
import type { RunRow } from "./runs-repo";

/** The list's query as the route parsed it: RunListParams with its sort and direction checked. */
export interface ListRunsQuery extends Omit<RunListParams, "sort" | "dir" | "limit"> {
  sort?: RunSort;
  dir?: "asc" | "desc";
  limit: number;
}

interface Cursor {
  createdAt: number;
  id: string;
}

export function encodeCursor(c: Cursor | { offset: number }): string {
  const value = "offset" in c ? { offset: c.offset } : [c.createdAt, c.id];
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

export function decodeCursor(raw: string): Cursor | null {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as [unknown, unknown];
    if (typeof createdAt !== "number" || typeof id !== "string") return null;
    return { createdAt, id };
  } catch {
    return null;
  }
}

function decodeOffset(raw: string | undefined): number {
  if (!raw) return 0;
  try {
    const v = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as { offset?: unknown };
    return typeof v.offset === "number" && Number.isInteger(v.offset) && v.offset >= 0 ? v.offset : 0;
  } catch {
    return 0;
  }
}

const SORT_COLUMNS = {
  created: "created_at",
  model: "list_model",
  gpuModel: "list_gpu_model",
  gpuCount: "list_gpu_count",
  concurrency: "list_concurrency",
  backend: "list_backend",
} as const;

function likePattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Newest first; keyset pagination on (created_at, id). A run's first ingest is not listed until it
 * ends; a run ingested again (a re-ingest, or a run stored as rows being rebuilt,
 * lib/ingest/rebuild-row-runs.ts) keeps its earlier summary meanwhile and is listed `ingesting`.
 */
export async function listRuns(
  db: Db,
  query: ListRunsQuery,
): Promise<{ runs: RunListItem[]; nextCursor: string | null }> {
  let qb = db
    .selectFrom("runs")
    .selectAll()
    .where((eb) => eb.or([eb("status", "!=", "ingesting"), eb("summary", "is not", null)]));
  if (query.q) {
    const pattern = likePattern(query.q);
    qb = qb.where((eb) =>
      eb.or([
        eb(sql`lower(name)`, "like", sql`${pattern} escape '\\'`),
        eb.exists(
          eb
            .selectFrom("run_labels")
            .select("run_labels.label")
            .whereRef("run_labels.run_id", "=", "runs.id")
            .where(sql`lower(label)`, "like", sql`${pattern} escape '\\'`),
        ),
      ]),
    );
  }
  if (query.label) {
    const label = query.label;
    qb = qb.where((eb) =>
      eb.exists(
        eb
          .selectFrom("run_labels")
          .select("run_labels.label")
          .whereRef("run_labels.run_id", "=", "runs.id")
          .where("run_labels.label", "=", label),
      ),
    );
  }
  if (query.model)
    qb = qb.where(sql`lower(list_model)`, "like", sql`${likePattern(query.model)} escape '\\'`);
  if (query.gpu)
    qb = qb.where(sql`lower(list_gpu_model)`, "like", sql`${likePattern(query.gpu)} escape '\\'`);
  if (query.backend)
    qb = qb.where(sql`lower(list_backend)`, "like", sql`${likePattern(query.backend)} escape '\\'`);
  if (query.gpus !== undefined) qb = qb.where("list_gpu_count", "=", query.gpus);
  if (query.concurrency !== undefined) qb = qb.where("list_concurrency", "=", query.concurrency);
  if ((query.sort && query.sort !== "created") || query.dir === "asc") {
    const column = SORT_COLUMNS[query.sort ?? "created"];
    const dir = query.dir ?? (query.sort === "created" ? "desc" : "asc");
    const offset = decodeOffset(query.cursor);
    const sorted = await qb
      .orderBy(sql`case when ${sql.ref(column)} is null then 1 else 0 end`)
      .orderBy(column, dir)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(query.limit + 1)
      .offset(offset)
      .execute();
    return {
      runs: sorted.slice(0, query.limit).map(toListItem),
      nextCursor: sorted.length > query.limit ? encodeCursor({ offset: offset + query.limit }) : null,
    };
  }
  const cursor = query.cursor ? decodeCursor(query.cursor) : null;
  if (cursor) {
    qb = qb.where((eb) =>
      eb.or([
        eb("created_at", "<", cursor.createdAt),
        eb.and([eb("created_at", "=", cursor.createdAt), eb("id", "<", cursor.id)]),
      ]),
    );
  }
  const rows = await qb
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(query.limit + 1)
    .execute();
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    runs: page.map(toListItem),
    nextCursor:
      rows.length > query.limit && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
  };
}

/** The catalog fields a run list item and a run summary both begin with. */
export function runHead(r: RunRow): RunHead {
  return {
    id: r.id,
    name: r.name,
    createdAt: new Date(r.created_at).toISOString(),
    labels: JSON.parse(r.labels) as string[],
    status: r.status,
  };
}

/** When the run's summary and drill-down were stored (ISO), null while not yet. */
export function runReadiness(r: RunRow): Pick<RunListItem, "summaryReadyAt" | "drilldownReadyAt"> {
  return { summaryReadyAt: isoOrNull(r.summary_ready_at), drilldownReadyAt: isoOrNull(r.drilldown_ready_at) };
}

function isoOrNull(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(ms).toISOString();
}

export function toListItem(r: RunRow): RunListItem {
  return {
    ...runHead(r),
    ...runReadiness(r),
    kinds: JSON.parse(r.kinds) as string[],
    backend: r.list_backend ?? r.backend,
    requestCount: r.request_count,
    model: r.list_model,
    gpuModel: r.list_gpu_model,
    gpuCount: r.list_gpu_count,
    concurrency: r.list_concurrency,
  };
}

export async function countRuns(db: Db): Promise<number> {
  const row = await db
    .selectFrom("runs")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
