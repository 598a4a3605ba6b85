/**
 * A Prometheus scrape with 200,000 series of one family (one per engine label) is valid input:
 * it must ingest to `ready`, not fail on the call stack while its series are collected.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { uploadRequest, useTestApp } from "../helpers/test-app";

const SERIES = 200_000;

let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ cleanup } = await useTestApp());
});
afterEach(async () => cleanup());

function scrape(series: number): string {
  const lines = new Array<string>(series + 1);
  lines[0] = "# TYPE vllm:num_requests_running gauge";
  for (let i = 0; i < series; i++) lines[i + 1] = `vllm:num_requests_running{engine="${i}"} ${i}`;
  return lines.join("\n") + "\n";
}

describe("a Prometheus scrape of many series", () => {
  it(`ingests ${SERIES} series of one family to ready`, async () => {
    const res = await upload(uploadRequest([{ name: "metrics.prom", content: scrape(SERIES) }]));
    const body = await res.json();
    expect(res.status).toBe(201);
    expect(body.error ?? null).toBeNull();
    expect(body.status).toBe("ready");
    expect(body.files[0].kind).toBe("aiperf-server-metrics");
  });
});
