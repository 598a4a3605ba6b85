/**
 * Sweep services: one sweep with a point per run, the list, and creating, changing or deleting
 * one. Deleting a sweep or removing a run from it never deletes a run.
 */
import type { Sweep } from "@/lib/api/sweeps";
import type { IngestDeps } from "@/lib/ingest/deps";
import { UnusableContentError } from "@/lib/api/request-errors";
import { newRunId } from "@/lib/store/ids";
import { existingRunIds, getSweep, insertSweep, updateSweep } from "@/lib/store/sweeps-repo";
import type { AiperfSweepExport } from "@/lib/formats/aiperf-sweep";
import { sweepMember, type SweepMember } from "./sweep-run-point";

type Fact = Sweep["facts"][string];

const SHARED_FACTS = ["model", "backend", "backendVersion", "gpuModel", "gpuCount", "isl", "osl"] as const;

/** Concurrency, then request rate, ascending; runs that state neither keep their order, last. */
function byLoad(a: SweepMember, b: SweepMember): number {
  const key = (m: SweepMember) => m.run.concurrency ?? m.run.requestRate ?? Infinity;
  return key(a) - key(b);
}

/** A fact every run states with the same value; runs that do not state it do not break it. */
function shared(members: SweepMember[], pick: (m: SweepMember) => Fact | null): Fact | null {
  const facts = members.map(pick).filter((f) => f !== null);
  if (facts.length === 0 || facts.length < members.length) return null;
  return facts.every((f) => f.value === facts[0].value) ? facts[0] : null;
}

export async function readSweep(app: IngestDeps, id: string): Promise<Sweep | null> {
  const found = await getSweep(app.store.db, id);
  if (!found) return null;
  const members: SweepMember[] = [];
  // One run at a time: SQLite answers one query at a time anyway, and a sweep has tens of runs.
  for (const runId of found.runIds) {
    const m = await sweepMember(app, runId);
    if (m) members.push(m);
  }
  members.sort(byLoad);
  const facts: Sweep["facts"] = {};
  for (const key of SHARED_FACTS) {
    const f = shared(members, (m) => m.facts[key]);
    if (f) facts[key] = f;
  }
  const meta = JSON.parse(found.sweep.meta) as { aiperfSweep?: AiperfSweepExport };
  const a = meta.aiperfSweep;
  return {
    id: found.sweep.id,
    name: found.sweep.name,
    createdAt: new Date(Number(found.sweep.created_at)).toISOString(),
    facts,
    runs: members.map((m) => m.run),
    aiperf: a
      ? { parameterName: a.parameterName, parameterValues: a.parameterValues, paretoOptimal: a.paretoOptimal }
      : null,
  };
}

async function checkRuns(app: IngestDeps, runIds: string[]): Promise<void> {
  const found = await existingRunIds(app.store.db, runIds);
  const unknown = runIds.filter((r) => !found.has(r));
  if (unknown.length > 0)
    throw new UnusableContentError("unknown_runs", `no such run: ${unknown.slice(0, 5).join(", ")}`, {
      unknown,
    });
}

export async function createSweep(app: IngestDeps, name: string, runIds: string[]): Promise<string> {
  await checkRuns(app, runIds);
  const id = newRunId();
  const now = Date.now();
  await insertSweep(
    app.store.db,
    { id, name, created_at: now, updated_at: now, meta: JSON.stringify({ source: "grouped" }) },
    runIds,
  );
  return id;
}

export interface SweepChange {
  name?: string;
  runIds?: string[];
  addRunIds?: string[];
  removeRunIds?: string[];
}

/** Applies the change; false when there is no such sweep. Runs added here leave their old sweep. */
export async function changeSweep(app: IngestDeps, id: string, change: SweepChange): Promise<boolean> {
  const current = await getSweep(app.store.db, id);
  if (!current) return false;
  let runIds: string[] | undefined;
  if (change.runIds || change.addRunIds || change.removeRunIds) {
    const base = change.runIds ?? current.runIds;
    const removed = new Set(change.removeRunIds ?? []);
    runIds = [...new Set([...base, ...(change.addRunIds ?? [])])].filter((r) => !removed.has(r));
    await checkRuns(
      app,
      runIds.filter((r) => !current.runIds.includes(r)),
    );
  }
  return updateSweep(app.store.db, id, { name: change.name, runIds });
}
