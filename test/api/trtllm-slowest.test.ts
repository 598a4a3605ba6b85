/**
 * The slowest requests of a TensorRT-LLM run (perf metrics only, no aiperf records): per metric,
 * the ten requests with the largest server TTFT, E2E and TPOT, as TensorRT-LLM's stamps give them
 * (docs/metrics.md §Request latency from perf metrics), each opening its request detail
 * (GET /api/runs/{id}/trtllm/requests/{idx}) with the same numbers. Pinned on the real
 * disaggregated excerpt (real-public, read in place; skipped when absent) and on the example run.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as getChart } from "@/app/api/runs/[id]/charts/[key]/route";
import { GET as getDetail } from "@/app/api/runs/[id]/trtllm/requests/[idx]/route";
import { TRTLLM_CHARTS } from "@/lib/api/chart-catalog";
import {
  requestDetailSchema,
  TRTLLM_SLOWEST_LIMIT,
  trtllmSlowestPayloadSchema,
  type TrtllmSlowestPayload,
} from "@/lib/api/trtllm-charts";
import { describeRealPublic, realPublicJson, realPublicParts } from "../helpers/real-public";
import { disaggSpans, spanMs, type DisaggSpanRecord } from "../helpers/trtllm-disagg-spans";
import { freshAppEachTest, uploadRun } from "../helpers/test-app";

freshAppEachTest();

async function slowest(id: string): Promise<TrtllmSlowestPayload> {
  const res = await getChart(new Request(`http://localhost/api/runs/${id}/charts/x`), {
    params: Promise.resolve({ id, key: TRTLLM_CHARTS.slowest.key }),
  });
  expect(res.status).toBe(200);
  return trtllmSlowestPayloadSchema.parse(await res.json());
}

/** The `n` largest values, largest first. */
const largest = (values: number[], n = TRTLLM_SLOWEST_LIMIT) => [...values].sort((a, b) => b - a).slice(0, n);

/** Every row opens the request it lists: the detail has the same TTFT, E2E, start and request id. */
async function expectRowsOpen(id: string, payload: TrtllmSlowestPayload) {
  for (const m of ["ttftMs", "e2eMs", "tpotMs"] as const)
    for (const row of payload.lists[m]) {
      const res = await getDetail(new Request(`http://localhost/api/runs/${id}/trtllm/requests/${row.idx}`), {
        params: Promise.resolve({ id, idx: String(row.idx) }),
      });
      expect(res.status, `${m} idx ${row.idx}`).toBe(200);
      const d = requestDetailSchema.parse(await res.json());
      expect(d.ttftMs).toBe(row.ttftMs);
      expect(d.e2eMs).toBe(row.e2eMs);
      expect(d.requestId).toBe(row.requestId);
      expect(d.arrivalMs).toBe(row.startS === null ? null : row.startS * 1000);
    }
}

const FOLDER = "trtllm-1.2.1-disagg-perf-metrics-ddps-lab";
const RECORDS = "kv_transfer_p2048_d128_r1.0.EXCERPT-first27.json";

describeRealPublic(FOLDER, () => {
  const records = realPublicJson<DisaggSpanRecord[]>(FOLDER, RECORDS);
  const { ttft, e2e, tpot } = disaggSpans(records);

  it("lists the ten largest server TTFT and E2E of 27 requests, and the 5 TPOTs, each opening its request", async () => {
    const id = await uploadRun(realPublicParts(FOLDER));
    const p = await slowest(id);
    expect(p.total).toBe(27);
    expect(p.counts).toEqual({ ttftMs: 27, e2eMs: 27, tpotMs: 5 });
    const close = (got: Array<number | null>, want: number[]) => {
      expect(got).toHaveLength(want.length);
      got.forEach((g, i) => expect(g!).toBeCloseTo(want[i], 6));
    };
    close(
      p.lists.ttftMs.map((r) => r.ttftMs),
      largest(ttft),
    );
    close(
      p.lists.e2eMs.map((r) => r.e2eMs),
      largest(e2e),
    );
    close(
      p.lists.tpotMs.map((r) => r.tpotMs),
      largest(tpot),
    );
    // The measured requests (2048 in / 128 out, records 23-27) are the slowest end to end: 128 tokens each.
    expect(p.lists.e2eMs.slice(0, 5).map((r) => r.outputTokens)).toEqual([128, 128, 128, 128, 128]);
    await expectRowsOpen(id, p);
  });
});

describe("the example TensorRT-LLM run's slowest requests", () => {
  const DIR = path.resolve(__dirname, "../../lib/examples/files/trtllm-disagg-synthetic");

  it("are the ten largest TTFT and E2E of its 300 requests, and open their request detail", async () => {
    const files = fs.readdirSync(DIR).map((name) => ({ name, path: path.join(DIR, name) }));
    const id = await uploadRun(files);
    const p = await slowest(id);
    expect(p.total).toBe(300);
    // TTFT of a disaggregated request: the disagg server's arrival to its first token.
    const router = files.find((f) => f.name.startsWith("perf_metrics-disagg-router"))!;
    const ttft = fs
      .readFileSync(router.path, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as DisaggSpanRecord)
      .map((r) => spanMs(r.disagg_server_arrival_time, r.disagg_server_first_token_time));
    expect(p.counts.ttftMs).toBe(300);
    const got = p.lists.ttftMs.map((r) => r.ttftMs!);
    largest(ttft).forEach((v, i) => expect(got[i]).toBeCloseTo(v, 6));
    for (const m of ["e2eMs", "tpotMs"] as const) {
      const values = p.lists[m].map((r) => r[m]!);
      expect(values).toHaveLength(TRTLLM_SLOWEST_LIMIT);
      expect(values).toEqual([...values].sort((a, b) => b - a));
    }
    await expectRowsOpen(id, p);
  });
});
