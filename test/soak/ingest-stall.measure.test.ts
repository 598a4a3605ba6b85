/**
 * Measurement (RUNLENS_MEASURE=1): the event loop's longest stall and the process's RSS during
 * and after uploads of a 200,000-request aiperf file (RUNLENS_MEASURE_N), printed.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { loopStalls } from "../helpers/loop-stalls";
import { openTestApp, uploadRequest } from "../helpers/test-app";

const N = Number(process.env.RUNLENS_MEASURE_N ?? 200_000);
const mb = () => Math.round(process.memoryUsage().rss / 2 ** 20);

it.skipIf(process.env.RUNLENS_MEASURE !== "1")(
  "measures",
  async () => {
    const t = await openTestApp({ RUNLENS_DRILLDOWN: "background" });
    const gen = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-ingest-stall-"));
    try {
      await generateAiperfRun(gen, { records: N, seed: 9, csv: false });
      const file = path.join(gen, "profile_export.jsonl");
      console.log(
        `file ${Math.round(fs.statSync(file).size / 2 ** 20)} MiB; RSS at start ${mb()} MiB; load ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(" ")}`,
      );
      for (let k = 1; k <= 2; k++) {
        const stalls = loopStalls({ wall: true });
        let peak = 0;
        const sampler = setInterval(() => (peak = Math.max(peak, mb())), 100);
        const t0 = performance.now();
        const res = await upload(uploadRequest([{ name: "profile_export.jsonl", path: file }]));
        const s = stalls.stop();
        clearInterval(sampler);
        console.log(
          `upload ${k}: ${res.status} ${Math.round(performance.now() - t0)} ms; longest stall ${Math.round(s)} ms; RSS peak ${peak} MiB, after ${mb()} MiB`,
        );
      }
      await new Promise((r) => setTimeout(r, 30_000));
      console.log(
        `RSS 30 s later ${mb()} MiB; load ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(" ")}`,
      );
    } finally {
      fs.rmSync(gen, { recursive: true, force: true });
      await t.cleanup();
    }
  },
  1_800_000,
);
