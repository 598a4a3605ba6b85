/**
 * Stored run facts (docs/metrics.md §Run facts): what ingest read (`runs.facts`), a user's
 * corrections (`runs.fact_edits`, which only a PATCH writes) and the effective values copied
 * into the columns the run list sorts and filters by.
 */
import {
  applyFactsPatch,
  effectiveFacts,
  type ExtractedFacts,
  type FactEdits,
  type FactsPatch,
  type RunFacts,
} from "@/lib/api/run-facts";
import type { Db } from "./db";
import type { RunRow } from "./runs-repo";

type ListColumns = Pick<
  RunRow,
  "list_model" | "list_backend" | "list_gpu_model" | "list_gpu_count" | "list_concurrency"
>;

export function listColumns(f: RunFacts): ListColumns {
  return {
    list_model: f.model?.value ?? null,
    list_backend: f.backend?.value ?? null,
    list_gpu_model: f.gpuModel?.value ?? null,
    list_gpu_count: f.gpuCount?.value ?? null,
    list_concurrency: f.concurrency?.value ?? null,
  };
}

const parse = <T>(text: string | null): T | null => (text ? (JSON.parse(text) as T) : null);

/** A run row's effective facts. */
export function rowFacts(row: Pick<RunRow, "facts" | "fact_edits">): RunFacts {
  return effectiveFacts(parse<ExtractedFacts>(row.facts), parse<FactEdits>(row.fact_edits));
}

/** The columns an ingest writes: what it read, and the list columns with the stored edits over it. */
export function extractedFactColumns(
  extracted: ExtractedFacts,
  editsText: string | null,
): Pick<RunRow, "facts"> & ListColumns {
  return {
    facts: JSON.stringify(extracted),
    ...listColumns(effectiveFacts(extracted, parse<FactEdits>(editsText))),
  };
}

/** Applies a user's corrections; returns false when the run does not exist. */
export async function patchRunFacts(db: Db, id: string, patch: FactsPatch): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("runs")
      .select(["facts", "fact_edits"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) return false;
    const edits = applyFactsPatch(parse<FactEdits>(row.fact_edits), patch);
    const facts = effectiveFacts(parse<ExtractedFacts>(row.facts), edits);
    await trx
      .updateTable("runs")
      .set({
        fact_edits: Object.keys(edits).length > 0 ? JSON.stringify(edits) : null,
        ...listColumns(facts),
        updated_at: Date.now(),
      })
      .where("id", "=", id)
      .execute();
    return true;
  });
}

/** Effective facts of many runs at once; a run that does not exist has no entry. */
export async function getRunFacts(db: Db, ids: readonly string[]): Promise<Map<string, RunFacts>> {
  const out = new Map<string, RunFacts>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom("runs")
      .select(["id", "facts", "fact_edits"])
      .where("id", "in", ids.slice(i, i + 500))
      .execute();
    for (const r of rows) out.set(r.id, rowFacts(r));
  }
  return out;
}
