/**
 * A disaggregation server's per-request metrics as the client kept them, through the upload
 * (docs/formats.md §TensorRT-LLM metrics in responses): aiperf's raw export whose streamed
 * responses end with the `trtllm.perf_metrics` event of a disaggregated request, beside aiperf's
 * records, on each store. The event is written by test/generators/trtllm-response-metrics.mjs
 * `disaggRecordFixture` after NVIDIA/TensorRT-LLM at commit 07fe63112763b8fedd04ca58cfcbab38de1d93b0:
 * `tensorrt_llm/serve/perf_metrics.py` (`build_metrics_headers`, `build_metrics_record_from_headers`,
 * `combine_disagg_metrics`) and `tensorrt_llm/serve/openai_disagg_server.py` (`on_resp_done`, the
 * disagg phase); the raw lines after ai-dynamo/aiperf `raw_record_writer_processor.py`.
 */
import { describe, expect, it } from "vitest";
import { GET as getJourney } from "@/app/api/runs/[id]/journey/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { GET as getDetail } from "@/app/api/runs/[id]/trtllm/requests/[idx]/route";
import { journeySummarySchema } from "@/lib/api/request-journey";
import { requestDetailSchema } from "@/lib/api/trtllm-charts";
import {
  aiperfRawLine,
  buildMetricsHeaders,
  disaggRecordFixture,
} from "../generators/trtllm-response-metrics.mjs";
import { DISAGG_SEGMENTS } from "../generators/trtllm.mjs";
import { aiperfRun, trtllmJourneys } from "../helpers/journey-runs";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { idParams, uploadRun } from "../helpers/test-app";
import { storedTrtllmRows } from "../helpers/trtllm-request-rows";

const RAW_FILE = "run/profile_export_raw.jsonl";
const url = (p: string) => new Request(`http://localhost${p}`);
const round = (v: number | null) => (v === null ? null : Math.round(v * 1e6) / 1e6);

describe.each(TEST_STORES)(
  "a disaggregation server's metrics in aiperf's raw export (%s)",
  (_store, pgUrl) => {
    const env = useStoreTestApp(pgUrl);

    it("breaks each request down by phase, draws its context and generation lanes, joins it, and names its KV-transfer time", async () => {
      const { clients, files } = await aiperfRun(5, 7);
      const lines = [
        ...clients
          .slice(0, 3)
          .map((c, i) =>
            aiperfRawLine({ xRequestId: c.x, headers: buildMetricsHeaders(disaggRecordFixture(100 + i)) }),
          ),
        // A request that moved no KV cache: its generation worker sent no transfer.
        aiperfRawLine({
          xRequestId: clients[3].x,
          headers: buildMetricsHeaders(disaggRecordFixture(110, { kv: false })),
        }),
        // aiperf kept no event for the last one (metrics not asked for).
        aiperfRawLine({ xRequestId: clients[4].x }),
      ];
      const id = await uploadRun([...files, { name: RAW_FILE, content: lines.join("\n") + "\n" }]);

      const run = await (await getRun(url(`/api/runs/${id}`), idParams(id))).json();
      expect(run.status).toBe("ready");
      const raw = run.files.find((f: { name: string }) => f.name === RAW_FILE);
      expect(raw).toMatchObject({
        kind: "trtllm-perf-metrics",
        format: "aiperf-raw",
        records: 4,
        skipped: 0,
        meta: { role: "disagg-server", disaggRecords: 4, workerRecords: 0 },
      });
      // The disaggregation server sends each worker's items twice (rebuilt from its stamps, then
      // the worker's own); the copies agree, so nothing is malformed.
      expect(raw.warnings.map((w: { message: string }) => w.message)).toEqual([
        "1 record of 5 without a trtllm.perf_metrics event (the server's return_perf_metrics off, the request without X-TRTLLM-return-metrics: 1, or a non-streamed response, whose metrics headers aiperf's raw export does not keep)",
      ]);

      // The Breakdown, per phase: the context worker's queue 3 ms and prefill 4 ms; the generation
      // worker's queue 27 ms (arrival → first scheduled: no transfer stamps are sent, so its three
      // parts are not recorded); decode 134 ms from the generation engine's first token. No worker
      // sends its server arrival or server first token: pre-/postprocessing and the relay are not
      // recorded, never 0.
      const rows = await storedTrtllmRows(env.app.store.db, id);
      expect(rows).toHaveLength(4);
      for (const r of rows) {
        expect(r.mode).toBe("disaggregated");
        const seg = Object.fromEntries(
          DISAGG_SEGMENTS.map((n, i) => [n, round((JSON.parse(r.segments_json) as Array<number | null>)[i])]),
        );
        expect(seg).toEqual({
          disagg_preprocessing: null,
          ctx_preprocessing: null,
          ctx_queue: 3,
          ctx_processing: 4,
          ctx_postprocessing: null,
          disagg_relay: null,
          gen_preprocessing: null,
          gen_queue: 27,
          gen_queue_wait: null,
          gen_kv_transfer: null,
          gen_post_transfer: null,
          gen_postprocessing: null,
          disagg_postprocessing: null,
          decode: 134,
        });
        // TTFT is the disaggregation server's (arrival → first token 78 ms); E2E = TTFT + decode.
        expect(round(r.ttft_ms)).toBe(78);
        expect(round(r.e2e_ms)).toBe(212);
        // The context chunk from the context phase, the step from the generation phase.
        expect(JSON.parse(r.steps_json)).toEqual([
          [0, null, null, 2, null, 1, 1.5, 0.5],
          [1, 7, null, 3, null, 1, 2.5, 0.75],
        ]);
      }
      // The KV transfer: 9 ms as sent (gen_kv_transfer;dur), a duration without a start; not
      // measured for the request that moved none.
      const transfer = rows.map((r) => round(r.kv_transfer_ms));
      expect(transfer.filter((v) => v === 9)).toHaveLength(3);
      expect(transfer.filter((v) => v === null)).toHaveLength(1);

      // The request's detail beside the Breakdown names it "KV transfer time".
      const details = await Promise.all(
        rows.map(async (r) => {
          const res = await getDetail(url(`/api/runs/${id}/trtllm/requests/${r.idx}`), {
            params: Promise.resolve({ id, idx: String(r.idx) }),
          });
          expect(res.status).toBe(200);
          return requestDetailSchema.parse(await res.json());
        }),
      );
      expect(details.map((d) => round(d.kv.transferMs)).sort()).toEqual([9, 9, 9, null]);

      // The Timeline's journey: the server lane, then the context phase's lanes (prefill) and the
      // generation phase's (decode), at their offsets from the disaggregation server's arrival.
      const { joined } = await trtllmJourneys(id, clients.slice(0, 4));
      for (const j of joined) {
        const engine = j.lanes.filter((l) => l.source === "trtllm");
        expect(engine.map((l) => [l.name, l.role, round(l.startMs), round(l.endMs)])).toEqual([
          ["joined by disagg_request_id", "frontend", 0, 212],
          ["ctx_queue", "prefill", 3, 6],
          ["ctx_processing", "prefill", 6, 10],
          ["gen_queue", "decode", 28, 55],
          ["decode", "decode", 66, 200],
        ]);
        const c = clients.find((x) => x.x === j.xRequestId)!;
        expect(j.gaps.ttftMs).toBeCloseTo(c.ttftMs - 78, 3);
        expect(j.gaps.e2eMs).toBeCloseTo(c.e2eMs - 212, 3);
        // The generation queue holds the transfer, said on its lane where it was sent.
        const queue = engine.find((l) => l.name === "gen_queue")!;
        expect(queue.detail).toBe(
          j.xRequestId === clients[3].x
            ? null
            : "includes the KV-cache transfer, 9.000 ms (sent as a duration without a start, so not placed)",
        );
      }

      // The run's joined counts.
      const res = await getJourney(url(`/api/runs/${id}/journey`), idParams(id));
      expect(res.status).toBe(200);
      const summary = journeySummarySchema.parse(await res.json());
      expect(summary).toMatchObject({
        joined: 4,
        clientRequests: 5,
        serverSource: "trtllm",
        joinedBy: { spans: 0, trace: 0, trtllm: 4 },
      });
      expect(summary.ttftGapMs?.count).toBe(4);
      expect(summary.e2eGapMs?.count).toBe(4);
    });
  },
);
