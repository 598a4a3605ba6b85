import fs from "node:fs";
import path from "node:path";
import { createRunFromUpload } from "@/lib/ingest/create-run";
import { stageStream } from "@/lib/ingest/stage-stream";
import type { AppContext } from "@/lib/server/app-context";
import { countRuns } from "@/lib/store/run-list";
import { getMeta, setMeta } from "@/lib/store/runs-repo";
import { EXAMPLE_RUNS } from "./examples";

const SEEDED = "examples_seeded";

/**
 * Loads the example runs into an empty store, once: the flag stays set after a user deletes
 * them, and the flag is claimed before loading so two instances starting together seed once.
 */
export async function seedExamples(
  app: AppContext,
  fixturesDir = path.resolve(/*turbopackIgnore: true*/ process.cwd(), "test/fixtures"),
): Promise<number> {
  if (!app.config.seedExamples || !fs.existsSync(/*turbopackIgnore: true*/ fixturesDir)) return 0;
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
  for (const example of EXAMPLE_RUNS) {
    const present = example.files.filter((f) =>
      fs.existsSync(/*turbopackIgnore: true*/ path.join(fixturesDir, f.path)),
    );
    if (present.length === 0) continue;
    const files = [];
    for (const f of present)
      files.push(
        await stageStream(
          app.blobs,
          f.name,
          fs.createReadStream(/*turbopackIgnore: true*/ path.join(fixturesDir, f.path)),
        ),
      );
    try {
      await createRunFromUpload(app, {
        files,
        fields: { name: example.name, labels: example.labels.join(",") },
        warnings: [],
        suggestedName: example.name,
      });
      seeded++;
    } catch (err) {
      console.error(`[runlens] example "${example.name}" not loaded:`, (err as Error).message);
    }
  }
  return seeded;
}
