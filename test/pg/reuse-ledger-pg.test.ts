/**
 * The reuse ledger (docs/metrics.md §Reuse ledger) stored and served through PostgreSQL: a
 * generated multi-turn aiperf run with vLLM's counters (test/generators/aiperf-multiturn.mjs),
 * uploaded, its ledger read back by GET /api/runs/{id}/charts/reuse-ledger and listed for compare.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as compare } from "@/app/api/compare/route";
import { GET as getChart } from "@/app/api/runs/[id]/charts/[key]/route";
import { compareResponseSchema } from "@/lib/api/compare-schemas";
import { REUSE_LEDGER_CHART } from "@/lib/api/chart-catalog";
import { reuseLedgerPayloadSchema } from "@/lib/api/reuse-ledger";
import { generateMultiTurnRun } from "../generators/aiperf-multiturn.mjs";
import { PG_URL, usePgTestApp } from "../helpers/pg-schema";
import { uploadRun } from "../helpers/test-app";

describe.skipIf(!PG_URL)("reuse ledger on PostgreSQL", () => {
  usePgTestApp();

  it("stores the ledger with the run and serves it, as on SQLite", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ledger-pg-"));
    try {
      const gen = generateMultiTurnRun(dir, {
        conversations: 20,
        maxTurns: 6,
        seed: 3,
        serverMetrics: { sliceS: 1 },
      });
      const files = [gen.jsonlPath, gen.summaryPath, gen.serverMetricsPath!].map((p) => ({
        name: path.basename(p),
        path: p,
      }));
      const ids = [await uploadRun(files, { name: "a" }), await uploadRun(files, { name: "b" })];
      const res = await getChart(
        new Request(`http://localhost/api/runs/${ids[0]}/charts/${REUSE_LEDGER_CHART.key}`),
        {
          params: Promise.resolve({ id: ids[0], key: REUSE_LEDGER_CHART.key }),
        },
      );
      expect(res.status).toBe(200);
      const ledger = reuseLedgerPayloadSchema.parse(await res.json());
      const done = gen.requests.filter((r) => !r.failed && !r.cancelled);
      const delivered = ledger.steps.find((s) => s.id === "delivered")!;
      expect(delivered.tiers!.gpu.hit).toBe(done.reduce((s, r) => s + r.gpuCached!, 0));
      expect(delivered.blockWeighted.of).toBe(done.reduce((s, r) => s + r.prompt, 0));
      const body = compareResponseSchema.parse(
        await (
          await compare(new Request(`http://localhost/api/compare?runs=${ids.join(",")}&stat=p50`))
        ).json(),
      );
      expect(body.chartKeys[ids[1]]).toContain(REUSE_LEDGER_CHART.key);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
