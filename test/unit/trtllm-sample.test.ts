import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sampleRequests } from "@/lib/runs/trtllm-requests";
import { generateTrtllmRun } from "../generators/trtllm.mjs";
import { analyzeTrtllm, trtllmDiskFile } from "../generators/trtllm-ingest";

describe("TensorRT-LLM request sample", () => {
  it("takes every k-th request by arrival order through the primary key, at most 2,000", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-trtllm-sample-"));
    const gen = generateTrtllmRun({ dir, requests: 4500, stepsPerRequest: 1 });
    const run = await analyzeTrtllm(gen.files.map((f, i) => trtllmDiskFile(f, i)));
    const sample = (await sampleRequests(run.ctx.db, "r1", "arrival", "asc"))!;
    expect(sample.total).toBe(4500);
    // stride ceil(4500 / 2000) = 3: idx 0, 3, …, 4497
    expect(sample.requests.length).toBe(1500);
    expect(sample.requests.map((r) => r.idx)).toEqual(Array.from({ length: 1500 }, (_, i) => i * 3));
    const small = (await sampleRequests(run.ctx.db, "r1", "ttft", "desc", 10))!;
    expect(small.requests.map((r) => r.idx).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 10 }, (_, i) => i * 450),
    );
    const ttfts = small.requests.map((r) => r.ttftMs!);
    expect(ttfts).toEqual([...ttfts].sort((a, b) => b - a));
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
