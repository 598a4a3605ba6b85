/** The run list: search, labels, keyset pagination, and the fields a listed run shows. */
import { sql } from "kysely";
import type { RunHead, RunListItem } from "@/lib/api/schemas";
import type { Db } from "./db";
import type { RunRow } from "./runs-repo";

export interface ListRunsQuery {
  q?: string;
  label?: string;
  limit: number;
  cursor?: string;
}

interface Cursor {
  createdAt: number;
  id: string;
}

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.createdAt, c.id])).toString("base64url");
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

function likePattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Newest first; keyset pagination on (created_at, id). Runs still ingesting are not listed. */
export async function listRuns(
  db: Db,
  query: ListRunsQuery,
): Promise<{ runs: RunListItem[]; nextCursor: string | null }> {
  let qb = db.selectFrom("runs").selectAll().where("status", "!=", "ingesting");
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

export function toListItem(r: RunRow): RunListItem {
  return {
    ...runHead(r),
    kinds: JSON.parse(r.kinds) as string[],
    backend: r.backend,
    requestCount: r.request_count,
  };
}

export async function countRuns(db: Db): Promise<number> {
  const row = await db
    .selectFrom("runs")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
