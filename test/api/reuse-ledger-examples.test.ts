/**
 * Every reuse ledger the example runs (lib/examples/files) and the real SGLang agentic run
 * (real-public/aiperf-0.8.0-sglang-glm5.1-agentic-conc16) store, checked step by step for the
 * errors docs/metrics.md §Reuse ledger rules out, block- and request-weighted: a step or tier not
 * measured is null with what is missing (never 0), a measured one is a share in 0..1 of a base it
 * names, no loss is negative (an excess is a finding), and no interval's share is out of range.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as getChart } from "@/app/api/runs/[id]/charts/[key]/route";
import { REUSE_LEDGER_CHART } from "@/lib/api/chart-catalog";
import { reuseLedgerPayloadSchema, type LedgerFigure, type ReuseLedgerPayload } from "@/lib/api/reuse-ledger";
import { EXAMPLE_RUNS } from "@/lib/examples/examples";
import { describeRealPublic, realPublicParts } from "../helpers/real-public";
import { freshAppEachTest, uploadRun } from "../helpers/test-app";

freshAppEachTest();

async function ledgerOf(id: string): Promise<ReuseLedgerPayload | null> {
  const res = await getChart(new Request(`http://localhost/api/runs/${id}/charts/reuse-ledger`), {
    params: Promise.resolve({ id, key: REUSE_LEDGER_CHART.key }),
  });
  if (res.status === 404) return null;
  expect(res.status).toBe(200);
  return reuseLedgerPayloadSchema.parse(await res.json());
}

function expectHonest(p: ReuseLedgerPayload) {
  const figure = (f: LedgerFigure, what: string) => {
    if (f.rate === null) {
      expect(f.missing, `${what}: not measured says what is missing`).toMatch(/^not (measured|exported) — /);
      expect([f.hit, f.of], what).toEqual([null, null]);
    } else {
      expect(f.missing, what).toBeNull();
      expect(f.rate, what).toBeGreaterThanOrEqual(0);
      expect(f.rate, what).toBeLessThanOrEqual(1);
      // A share of a base: Σ hit / Σ of with the base counted, or a mean over counted requests.
      if (f.of !== null) expect(f.of, `${what}: base`).toBeGreaterThan(0);
      else expect(f.requests ?? (f.unit === "blocks" ? 1 : 0), `${what}: base`).toBeGreaterThan(0);
    }
  };
  for (const s of p.steps) {
    figure(s.blockWeighted, `${s.id} block-weighted`);
    figure(s.requestWeighted, `${s.id} request-weighted`);
    if (s.tiers) for (const [k, t] of Object.entries(s.tiers)) figure(t, `${s.id} tier ${k}`);
  }
  for (const l of p.losses) {
    expect(l.points === null || l.points >= 0, `${l.id} points`).toBe(true);
    expect(l.tokens === null || l.tokens >= 0, `${l.id} tokens`).toBe(true);
    expect(l.ttftMsPerRequest === null || l.ttftMsPerRequest >= 0, `${l.id} TTFT`).toBe(true);
    // Each loss is a figure, not measured (with what it needs), or no loss (with its finding).
    expect([l.points !== null, l.missing !== null, l.finding !== null].filter(Boolean), l.id).toHaveLength(1);
  }
  const tiers = p.steps.find((s) => s.id === "delivered")?.tiers;
  const offloadMeasured = !!tiers && (tiers.host.rate !== null || tiers.external.rate !== null);
  for (const i of p.intervals) {
    for (const k of ["theoretical", "predicted", "gpu", "offload", "reported"] as const) {
      const v = i[k];
      expect(v === null || (v >= 0 && v <= 1), `interval ${i.t} ${k}`).toBe(true);
    }
    if (!offloadMeasured) expect(i.offload, `interval ${i.t}: offload without a tier`).toBeNull();
  }
}

/** The examples whose uploads say anything about reuse (the others store no ledger). */
const WITH_LEDGER = [
  "aiperf-vllm-c4",
  "vllm-kv-offload",
  "vllm-offload-tiered",
  "trtllm-1p3d-server-metrics",
];

describe("the example runs' reuse ledgers", () => {
  const examples = path.resolve("lib/examples/files");
  for (const ex of EXAMPLE_RUNS.filter((e) => WITH_LEDGER.includes(e.dir)))
    it(`${ex.name}: every step, tier, loss and interval`, async () => {
      const dir = path.join(examples, ex.dir);
      const files = ex.files.filter((n) => fs.existsSync(path.join(dir, n)));
      const ledger = await ledgerOf(
        await uploadRun(files.map((name) => ({ name, path: path.join(dir, name) }))),
      );
      expect(ledger).not.toBeNull();
      expectHonest(ledger!);
    });
});

describeRealPublic("aiperf-0.8.0-sglang-glm5.1-agentic-conc16", () => {
  it("every step, tier, loss and interval of its ledger", async () => {
    const ledger = await ledgerOf(
      await uploadRun(realPublicParts("aiperf-0.8.0-sglang-glm5.1-agentic-conc16")),
    );
    expect(ledger).not.toBeNull();
    expectHonest(ledger!);
  });
});
