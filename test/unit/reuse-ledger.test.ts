/**
 * The cache-reuse ledger (docs/metrics.md §Reuse ledger), hand-computed. The inputs have the
 * shapes the producers write, as Runlens reads them: aiperf's per-record ISL and
 * usage_prompt_cache_read_tokens with the records' possible reuse (ai-dynamo/aiperf
 * `profile_export.jsonl`), aiperf's theoretical_prefix_cache_hit
 * (`post_processors/theoretical_prefix_cache_accumulator.py`), vLLM's prefix-cache counters by tier
 * (`vllm/v1/metrics/loggers.py` prompt_tokens_by_source: local_cache_hit = GPU, external_kv_transfer
 * = the connector's host tier), the Dynamo router's `[ROUTING] Best` overlap / prompt blocks
 * (ai-dynamo/dynamo `lib/llm/src/kv_router`) and its hit-rate histogram per pool.
 */
import { describe, expect, it } from "vitest";
import type { RouterLogPayload } from "@/lib/api/router-log";
import type { RouterPredictionPayload } from "@/lib/api/router-prediction";
import { reuseLedgerPayloadSchema } from "@/lib/api/reuse-ledger";
import { buildReuseLedger, CacheFeed, NOT_MEASURED, ttftPerComputedToken } from "@/lib/metrics/reuse-ledger";
import type { ReuseRequests } from "@/lib/metrics/reuse-intervals";
import { compareLedgerDeltas, compareLedgerRow, ledgerBarRows } from "@/lib/metrics/reuse-ledger-rows";

/** Four requests, three times over: prompt, possible, cached; TTFT = 10 + 0.1 ms × computed tokens. */
function requests(times = 3, t0Ms = 1_000): ReuseRequests {
  const base = [
    [100, 0, 0],
    [200, 100, 50],
    [300, 200, 200],
    [400, 300, 100],
  ];
  const rows = Array.from({ length: times }, () => base).flat();
  const n = rows.length;
  const r: ReuseRequests = {
    length: n,
    atEpochMs: Float64Array.from(rows, (_, i) => t0Ms + i * 500),
    prompt: Float64Array.from(rows, (x) => x[0]),
    possible: Float64Array.from(rows, (x) => x[1]),
    cached: Float64Array.from(rows, (x) => x[2]),
    ttftMs: Float64Array.from(rows, (x) => 10 + 0.1 * (x[0] - x[2])),
    source: "records",
  };
  return r;
}

function routerLog(predicted: number): RouterLogPayload {
  return {
    files: ["frontend.log"],
    source: "log",
    decisions: 12,
    outsideWindow: 0,
    untimed: 0,
    decodeDecisions: 0,
    predicted,
    delivered: null,
    deliveredMethod: null,
    gapPoints: null,
    workers: [
      {
        workerId: "7587",
        dpRank: 0,
        workerType: null,
        requests: 12,
        overlapBlocks: predicted * 100,
        totalBlocks: 100,
        predicted,
        endpoint: "worker-0",
        delivered: null,
        gapPoints: null,
      },
    ],
    otherWorkers: null,
    mapping: "one worker, one engine endpoint",
    missing: null,
    stepS: 1,
    startEpochMs: 1_000,
    points: [
      { t: 0, predicted: 0.5, delivered: null, requests: 2 },
      { t: 1, predicted: 0.6, delivered: null, requests: 2 },
    ],
  };
}

function histogram(): RouterPredictionPayload {
  const pool = (id: string, predicted: number, requests: number, endpoint: string) => ({
    id,
    label: id,
    source: "dynamo_component_router_kv_hit_rate",
    routers: ["frontend"],
    requests,
    predicted,
    delivered: null,
    deliveredMethod: null,
    gapPoints: null,
    endpoints: [{ endpoint, role: "combined" as const, delivered: null, deliveredMethod: null }],
    note: null,
  });
  return {
    pools: [pool("a", 0.6, 10, "worker-0"), pool("b", 0.4, 30, "worker-1")],
    unmatched: [],
    missing: null,
    sliceS: 1,
    startEpochMs: 1_000,
    series: [],
  };
}

/** One engine: 2,000 prompt tokens looked up, 800 from GPU, 200 from the host tier, no external tier. */
function cacheFeed(withRouter = true): CacheFeed {
  const c = new CacheFeed();
  c.engines = [{ endpoint: "worker-0", role: "combined", den: 2000, gpu: 800, host: 200, ext: null }];
  c.sources = ["vllm prompt_tokens_by_source"];
  c.served = {
    startNs: [1_000e6, 2_000e6, 3_000e6],
    durationNs: [1e9, 1e9, 1e9],
    prompt: [500, 700, 800],
    gpu: [100, 300, 400],
    external: [50, 70, 80],
    sources: ["vllm prompt_tokens_by_source"],
  };
  if (withRouter) {
    c.routerLog = routerLog(0.55);
    c.routerHistogram = histogram();
  }
  return c;
}

describe("the reuse ledger, hand-computed", () => {
  const ledger = reuseLedgerPayloadSchema.parse(
    buildReuseLedger({ requests: requests(), theoreticalBlocks: null, cache: cacheFeed() }),
  );
  const step = (id: string) => ledger.steps.find((s) => s.id === id)!;

  it("gives each step block-weighted (Σ / Σ) and request-weighted (mean of ratios)", () => {
    // Σ possible 600 / Σ prompt 1,000 per four requests; mean of 0, ½, ⅔, ¾.
    expect(step("theoretical").blockWeighted.rate).toBeCloseTo(0.6, 12);
    expect(step("theoretical").requestWeighted.rate).toBeCloseTo((0 + 0.5 + 2 / 3 + 0.75) / 4, 12);
    // Router log Σ overlap / Σ blocks; the histogram's pools weighted by their requests: (0.6×10 + 0.4×30) / 40.
    expect(step("predicted").blockWeighted.rate).toBe(0.55);
    expect(step("predicted").requestWeighted.rate).toBeCloseTo(0.45, 12);
    // (800 + 200) / 2,000; tiers GPU 40 %, host 10 %, external not exported (never 0).
    expect(step("delivered").blockWeighted.rate).toBe(0.5);
    expect(step("delivered").tiers!.gpu.rate).toBe(0.4);
    expect(step("delivered").tiers!.host.rate).toBe(0.1);
    expect(step("delivered").tiers!.external.rate).toBeNull();
    expect(step("delivered").tiers!.external.missing).toBe(NOT_MEASURED.tier.external);
    expect(step("delivered").requestWeighted.rate).toBeNull();
    expect(step("delivered").requestWeighted.missing).toBe(NOT_MEASURED.deliveredRequests);
    // Σ cached 350 / 1,000; mean of 0, ¼, ⅔, ¼.
    expect(step("reported").blockWeighted.rate).toBeCloseTo(0.35, 12);
    expect(step("reported").requestWeighted.rate).toBeCloseTo((0 + 0.25 + 2 / 3 + 0.25) / 4, 12);
  });

  it("names each loss in points, in tokens of the engines' lookups, and in the TTFT it cost", () => {
    // TTFT = 10 + 0.1 × (prompt − cached) exactly: 0.1 ms per computed token; mean prompt 250.
    expect(ledger.ttftMsPerToken).toBeCloseTo(0.1, 12);
    expect(ledger.basisTokens).toBe(2000);
    const loss = Object.fromEntries(ledger.losses.map((l) => [l.id, l]));
    const expected = {
      "routed-elsewhere": 5, // 60 − 55
      "evicted-before-reuse": 15, // 55 − 40 (GPU)
      "not-offloaded": 5, // 55 − 50 (every tier)
      "recomputed-reusable": 10, // 60 − 50
      "not-reported": 15, // 50 − 35
    } as const;
    for (const [id, points] of Object.entries(expected)) {
      expect(loss[id].points).toBeCloseTo(points, 9);
      expect(loss[id].tokens).toBeCloseTo((points / 100) * 2000, 9);
      expect(loss[id].ttftMsPerRequest).toBeCloseTo(0.1 * (points / 100) * 250, 9);
      expect(loss[id].missing).toBeNull();
    }
    expect(loss["not-offloaded"].label).toContain("not served by any offload tier");
  });

  it("per endpoint: the tiers and the router's prediction where the data maps it", () => {
    expect(ledger.endpoints).toEqual([
      expect.objectContaining({
        endpoint: "worker-0",
        lookupTokens: 2000,
        gpuTokens: 800,
        hostTokens: 200,
        externalTokens: null,
        delivered: 0.5,
        predictedBlocks: 0.55,
        predictedRequests: 0.6,
        note: null,
      }),
    ]);
  });

  it("per interval: each step's share of the interval's prompt tokens", () => {
    // Requests every 500 ms from 1,000 ms: two per 1 s interval; the last four fall past the scrapes.
    expect(ledger.intervals.map((p) => p.requests)).toEqual([2, 2, 2]);
    const [a, b] = ledger.intervals;
    expect(a.theoretical).toBeCloseTo(100 / 300, 12); // requests 0, 1
    expect(a.reported).toBeCloseTo(50 / 300, 12);
    expect(a.gpu).toBeCloseTo(100 / 500, 12);
    expect(a.offload).toBeCloseTo(50 / 500, 12);
    expect(a.predicted).toBe(0.5);
    expect(b.theoretical).toBeCloseTo(500 / 700, 12); // requests 2, 3
    expect(b.predicted).toBe(0.6);
    expect(ledger.intervals[2].predicted).toBeNull();
  });
});

describe("steps with no source", () => {
  it("say what to upload, never 0, and the losses that need them too", () => {
    const c = cacheFeed(false);
    const ledger = buildReuseLedger({ requests: requests(), theoreticalBlocks: null, cache: c })!;
    const predicted = ledger.steps.find((s) => s.id === "predicted")!;
    expect(predicted.blockWeighted).toMatchObject({ rate: null, missing: NOT_MEASURED.predictedBlocks });
    expect(predicted.requestWeighted).toMatchObject({ rate: null, missing: NOT_MEASURED.predictedRequests });
    const loss = Object.fromEntries(ledger.losses.map((l) => [l.id, l]));
    expect(loss["routed-elsewhere"]).toMatchObject({ points: null, tokens: null, ttftMsPerRequest: null });
    expect(loss["routed-elsewhere"].missing).toBe("not measured — needs router-predicted");
    expect(loss["recomputed-reusable"].points).toBeCloseTo(10, 9);
  });

  it("aiperf's theoretical hit rate (blocks) is the block-weighted ceiling when the summary has it", () => {
    const ledger = buildReuseLedger({ requests: requests(), theoreticalBlocks: 0.7, cache: cacheFeed() })!;
    const t = ledger.steps[0];
    expect(t.blockWeighted).toMatchObject({ rate: 0.7, unit: "blocks" });
    expect(t.requestWeighted.rate).toBeCloseTo((0 + 0.5 + 2 / 3 + 0.75) / 4, 12);
    expect(ledger.losses[0].points).toBeCloseTo(15, 9);
  });

  it("no requests and no counters: no ledger; the TTFT fit says why it has no slope", () => {
    expect(buildReuseLedger({ requests: null, theoreticalBlocks: null, cache: new CacheFeed() })).toBeNull();
    expect(ttftPerComputedToken(requests(2)).fit).toBe(
      "not measured — 8 requests with cached tokens and TTFT (10 needed)",
    );
    const flat = requests();
    flat.ttftMs = flat.ttftMs!.map(() => 20);
    expect(ttftPerComputedToken(flat).slope).toBeNull();
  });
});

describe("ledgers of compared runs", () => {
  it("gives each run's steps and losses in points, and each one's change against the baseline", () => {
    const a = buildReuseLedger({ requests: requests(), theoreticalBlocks: null, cache: cacheFeed() })!;
    const b = buildReuseLedger({ requests: requests(), theoreticalBlocks: null, cache: cacheFeed(false) })!;
    const rows = [compareLedgerRow("a", "A", a), compareLedgerRow("b", "B", b)];
    const expected = {
      theoretical: 60,
      predicted: 55,
      gpu: 40,
      offload: 10,
      delivered: 50,
      reported: 35,
    } as const;
    for (const [k, v] of Object.entries(expected))
      expect(rows[0][k as keyof typeof expected]).toBeCloseTo(v, 9);
    expect(rows[1].predicted).toBeNull();
    const d = compareLedgerDeltas(rows, "a");
    expect(d.b.delivered).toBeCloseTo(0, 9);
    expect(d.b.predicted).toBeNull();
    expect(d.a.delivered).toBe(0);
  });
});

describe("a later step that counts more", () => {
  // The records' history allows 60 % (1,320 / 2,200 tokens), the router log says 80 % of its
  // blocks were on the chosen worker (it also sees prefixes shared across conversations), and the
  // engine's GPU served 90 % of its lookups. No host or external tier.
  const feed = () => {
    const c = cacheFeed(false);
    c.engines = [{ endpoint: "worker-0", role: "combined", den: 2000, gpu: 1800, host: null, ext: null }];
    c.served = { ...c.served!, external: null };
    c.routerLog = routerLog(0.8);
    return c;
  };

  it("is no loss: never negative points or tokens, and the excess is said as its own finding", () => {
    const ledger = reuseLedgerPayloadSchema.parse(
      buildReuseLedger({ requests: requests(), theoreticalBlocks: null, cache: feed() }),
    );
    const loss = Object.fromEntries(ledger.losses.map((l) => [l.id, l]));
    for (const l of ledger.losses) {
      expect(l.points === null || l.points >= 0, l.id).toBe(true);
      expect(l.tokens === null || l.tokens >= 0, l.id).toBe(true);
      expect(l.ttftMsPerRequest === null || l.ttftMsPerRequest >= 0, l.id).toBe(true);
    }
    // theoretical 60 % → predicted 80 %: the router predicted more than the prompts' history holds.
    expect(loss["routed-elsewhere"]).toMatchObject({ points: null, tokens: null, missing: null });
    expect(loss["routed-elsewhere"].finding).toBe(
      "no loss: router-predicted (80.0 %) is above theoretical (60.0 %) by 20.0 points: the router predicted more reuse than the prompts' theoretical reuse (it also counts prefixes shared across conversations, or traffic the records do not hold)",
    );
    // predicted 80 % → GPU 90 %: the engine reused more than the router predicted.
    expect(loss["evicted-before-reuse"]).toMatchObject({ points: null, missing: null });
    expect(loss["evicted-before-reuse"].finding).toContain(
      "delivered from GPU (90.0 %) is above router-predicted (80.0 %) by 10.0 points: the engines' GPU cache reused more than the router predicted",
    );
    expect(loss["not-offloaded"].finding).toContain("the engines reused more than the router predicted");
    expect(loss["recomputed-reusable"].finding).toContain("by 30.0 points");
    // delivered 90 % → reported 35 %: a real loss, with no finding.
    expect(loss["not-reported"]).toMatchObject({ finding: null, missing: null });
    expect(loss["not-reported"].points).toBeCloseTo(55, 9);
    // A loss not measured has no finding either.
    const none = buildReuseLedger({
      requests: requests(),
      theoreticalBlocks: null,
      cache: cacheFeed(false),
    })!;
    expect(none.losses.find((l) => l.id === "routed-elsewhere")).toMatchObject({
      points: null,
      finding: null,
      missing: "not measured — needs router-predicted",
    });
    // Across compared runs the same: no negative loss, the finding kept beside the row.
    const row = compareLedgerRow("a", "A", ledger);
    expect(row["routed-elsewhere"]).toBeNull();
    expect(row.findings["routed-elsewhere"]).toBe(loss["routed-elsewhere"].finding);
    expect(row["not-reported"]).toBeCloseTo(55, 9);
  });

  it("with no host or external tier: those tiers are not measured, never 0 %, and no offload line", () => {
    const ledger = buildReuseLedger({ requests: requests(), theoreticalBlocks: null, cache: feed() })!;
    const tiers = ledger.steps.find((s) => s.id === "delivered")!.tiers!;
    expect(tiers.host).toMatchObject({ rate: null, missing: NOT_MEASURED.tier.host });
    expect(tiers.external).toMatchObject({ rate: null, missing: NOT_MEASURED.tier.external });
    expect(ledger.intervals.every((i) => i.offload === null)).toBe(true);
    expect(compareLedgerRow("a", "A", ledger).offload).toBeNull();
    expect(
      ledgerBarRows(ledger)
        .filter((b) => b.tier && b.pct === null)
        .map((b) => b.label),
    ).toEqual(["delivered: host / CPU: not measured", "delivered: disk / external: not measured"]);
  });
});
