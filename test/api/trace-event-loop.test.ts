/**
 * Issue 31 N2: a large run's trace export never holds the event loop. The run's 100,000
 * TensorRT-LLM requests come from test/generators/trtllm.mjs (records shaped as TensorRT-LLM's
 * serve/openai_server.py writes its perf_metrics); while the trace is read, a timer samples how
 * late the loop answers, as /api/health would.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as getTrace } from "@/app/api/runs/[id]/trace.json/route";
import { generateTrtllmRun } from "../generators/trtllm.mjs";
import { freshAppEachTest, idParams, uploadRun } from "../helpers/test-app";

freshAppEachTest();

/** The longest the loop went without running a timer while `work` ran, in ms. */
async function maxStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 5);
  try {
    const result = await work();
    stallMs = Math.max(stallMs, performance.now() - last);
    return { result, stallMs };
  } finally {
    clearInterval(timer);
  }
}

describe("trace export of a large run", () => {
  it("streams 100k TensorRT-LLM requests without stalling the event loop", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-trace-big-"));
    const gen = generateTrtllmRun({ dir, mode: "aggregated", requests: 100_000, seed: 7, ctxWorkers: 4 });
    const id = await uploadRun(gen.files.map((p) => ({ name: path.basename(p), path: p })));

    const { result: text, stallMs } = await maxStall(async () => {
      const res = await getTrace(new Request(`http://localhost/api/runs/${id}/trace.json`), idParams(id));
      expect(res.status).toBe(200);
      return res.text();
    });
    const trace = JSON.parse(text) as { otherData: Record<string, string> };
    expect(trace.otherData.requests).toBe("100000");
    expect(stallMs).toBeLessThan(250);
  }, 600_000);
});
