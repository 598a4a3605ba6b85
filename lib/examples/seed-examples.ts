import fs from "node:fs";
import path from "node:path";
import { createRunFromUpload } from "@/lib/ingest/create-run";
import { stageStream } from "@/lib/ingest/stage-stream";
import type { AppContext } from "@/lib/server/app-context";
import { countRuns } from "@/lib/store/run-list";
import { newRunId } from "@/lib/store/ids";
import { getMeta, setMeta } from "@/lib/store/runs-repo";
import { insertSweep } from "@/lib/store/sweeps-repo";
import { EXAMPLE_RUNS } from "./examples";

const SEEDED = "examples_seeded";

/**
 * Loads the example runs into an empty store, once: the flag stays set after a user deletes
 * them, and the flag is claimed before loading so two instances starting together seed once.
 * The files are read from the working directory at run time, not bundled (the server runs from
 * its checkout); the turbopackIgnore marks keep the bundler from tracing the whole checkout.
 */
export async function seedExamples(
  app: AppContext,
  examplesDir = path.resolve(/*turbopackIgnore: true*/ process.cwd(), "lib/examples/files"),
): Promise<number> {
  if (!app.config.seedExamples || !fs.existsSync(/*turbopackIgnore: true*/ examplesDir)) return 0;
  if ((await getMeta(app.store.db, SEEDED)) !== undefined) return 0;
  if ((await countRuns(app.store.db)) > 0) {
    await setMeta(app.store.db, SEEDED, "skipped: store not empty");
    return 0;
  }
  try {
    await app.store.db.insertInto("meta").values({ key: SEEDED, value: new Date().toISOString() }).execute();
  } catch {
    return 0; // another instance claimed it
  }
  let seeded = 0;
  const sweeps = new Map<string, string[]>();
  for (const example of EXAMPLE_RUNS) {
    const dir = path.join(examplesDir, example.dir);
    const present = example.files.filter((name) =>
      fs.existsSync(/*turbopackIgnore: true*/ path.join(dir, name)),
    );
    if (present.length === 0) continue;
    const files = [];
    for (const name of present)
      files.push(
        await stageStream(
          app.blobs,
          name,
          fs.createReadStream(/*turbopackIgnore: true*/ path.join(dir, name)),
        ),
      );
    try {
      const made = await createRunFromUpload(app, {
        files,
        fields: { name: example.name, labels: example.labels.join(",") },
        warnings: [],
        suggestedName: example.name,
      });
      seeded++;
      if (example.sweep) sweeps.set(example.sweep, [...(sweeps.get(example.sweep) ?? []), made.id]);
    } catch (err) {
      console.error(`[runlens] example "${example.name}" not loaded:`, (err as Error).message);
    }
  }
  for (const [name, runIds] of sweeps) {
    const now = Date.now();
    await insertSweep(
      app.store.db,
      { id: newRunId(), name, created_at: now, updated_at: now, meta: JSON.stringify({ source: "example" }) },
      runIds,
    ).catch((err: Error) => console.error(`[runlens] example sweep "${name}" not made:`, err.message));
  }
  return seeded;
}
