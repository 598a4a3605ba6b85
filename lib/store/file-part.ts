/**
 * Which benchmark of a multi-benchmark file a run holds (docs/formats.md §Benchmark tools): kept
 * in the file row's meta as `part`, so a re-ingest reads the same benchmark again. The analyzer
 * that reads the file repeats it in the meta it reports, which the commit stores.
 */
import type { Db } from "./db";
import type { FileRow } from "./runs-repo";

export function filePart(row: Pick<FileRow, "meta">): number | undefined {
  try {
    const part = (JSON.parse(row.meta) as { part?: unknown }).part;
    return typeof part === "number" && Number.isInteger(part) && part >= 0 ? part : undefined;
  } catch {
    return undefined;
  }
}

export async function setFilePart(db: Db, fileId: string, part: number): Promise<void> {
  const row = await db.selectFrom("files").select("meta").where("id", "=", fileId).executeTakeFirst();
  if (!row) return;
  let meta: Record<string, unknown> = {};
  try {
    meta = JSON.parse(row.meta) as Record<string, unknown>;
  } catch {
    // An unreadable meta is replaced: it only held the last ingest's report.
  }
  await db
    .updateTable("files")
    .set({ meta: JSON.stringify({ ...meta, part }) })
    .where("id", "=", fileId)
    .execute();
}
