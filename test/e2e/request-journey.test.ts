/**
 * One request from client to engine in the browser (docs/metrics.md §Client to engine): aiperf
 * records (test/generators/aiperf.mjs), Dynamo's request trace (test/generators/dynamo-request-trace.mjs)
 * and Dynamo's OpenTelemetry spans (test/generators/dynamo-otlp.mjs, after ai-dynamo/dynamo's
 * span definitions) in one run; the timeline shows the run's client↔server gap, and a request's
 * detail its client lane above the frontend, router and engine spans on one axis. A run of aiperf
 * records and TensorRT-LLM per-request perf metrics (written as TensorRT-LLM's released JSONL
 * writer writes them, test/generators/trtllm-jsonl-writer.mjs) draws its timeline from the
 * TensorRT-LLM requests: a bar's detail shows the client lane above the engine's segments where
 * an aiperf record shares its id, and the line naming the file that lacks one where none does.
 * TensorRT-LLM's time events (test/generators/trtllm-time-events.mjs, after TensorRT-LLM's
 * per-event writers) add a lane per role with its events marked, the ctx host's clock offset named.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { decodeTimeline, timelineWireSchema } from "@/lib/api/timeline";
import { formatMs } from "@/lib/format-number";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { clientsOfAiperf, dynamoOtlpSpans } from "../generators/dynamo-otlp.mjs";
import { dynamoRequestTrace } from "../generators/dynamo-request-trace.mjs";
import { AGGREGATED_MS, snowflakeId, workerRecordLine } from "../generators/trtllm-jsonl-writer.mjs";
import { ctxLines, genLines, jsonLines, perfRecord, routerLines } from "../generators/trtllm-time-events.mjs";
import { apiUpload, lookPages, shot, useAppAndBrowser } from "./harness";

describe("request detail: client to engine", () => {
  const t = useAppAndBrowser();
  // Each request's page loaded once and looked at in every look (light and dark, 1440 and 390 px).
  const looks = lookPages(() => t.browser);
  afterAll(() => looks.close());

  it("shows the gap over the run and one request's client lane above its server spans", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-e2e-journey-"));
    const gen = await generateAiperfRun(dir, { records: 40, concurrency: 4, seed: 9, csv: false });
    const clients = clientsOfAiperf(fs.readFileSync(gen.jsonlPath, "utf8"));
    const spans = dynamoOtlpSpans({ clients: clients.slice(0, 32), noIdEvery: 16 });
    // The trace's frontend received each request 0.3 ms after the client's send, on the client's clock.
    const trace = dynamoRequestTrace({
      requests: 40,
      ids: clients.map((c) => c.x),
      receivedMs: clients.map((c) => Number(c.startNs / 1000n) / 1000 + 0.3),
    });
    fs.writeFileSync(path.join(dir, "otel-traces.jsonl"), spans.text);
    fs.writeFileSync(path.join(dir, "dynamo-request-trace.jsonl"), trace.text);
    const run = await apiUpload(
      t.app.url,
      [
        { path: gen.jsonlPath },
        { path: gen.summaryPath },
        { path: path.join(dir, "dynamo-request-trace.jsonl") },
        { path: path.join(dir, "otel-traces.jsonl") },
      ],
      { name: "e2e client to engine" },
    );
    const summary = await (await fetch(`${t.app.url}/api/runs/${run.id}/journey`)).json();
    expect(summary.joined).toBe(clients.length);

    // The timeline is the drill-down, built after the summary: wait for it.
    let res = await fetch(`${t.app.url}/api/runs/${run.id}/timeline`);
    for (let i = 0; i < 120 && res.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 500));
      res = await fetch(`${t.app.url}/api/runs/${run.id}/timeline`);
    }
    const wire = await res.json();
    const bars = decodeTimeline(timelineWireSchema.parse(wire)).bars.id;
    let rid = -1;
    for (const b of bars) {
      const r = await (await fetch(`${t.app.url}/api/runs/${run.id}/timeline/requests/${b}`)).json();
      if (r.requestId === clients[1].x) rid = b;
    }
    expect(rid).toBeGreaterThanOrEqual(0);

    await looks.forEachLook(
      `${t.app.url}/runs/${run.id}?view=timeline&req=${rid}`,
      async (page, { width, scheme }) => {
        const gap = page.getByTestId("journey-summary");
        await gap.waitFor({ timeout: 30_000 });
        expect(await gap.textContent()).toContain(
          `${clients.length} of ${clients.length} client requests joined`,
        );
        expect(await gap.textContent()).toContain(
          "otel-traces.jsonl has no client request id (the client's x_request_id) on 2 traced requests",
        );
        const j = page.getByTestId("request-journey");
        await j.waitFor({ timeout: 30_000 });
        const lanes = j.locator('ul[aria-label="lanes"] > li');
        // Client, the trace's frontend row, then 8 spans.
        expect(await lanes.count()).toBe(10);
        expect(await lanes.first().textContent()).toContain("client (aiperf)");
        const text = (await j.textContent()) ?? "";
        // Spans in words on the lane; the span's own name only in the lane's tooltip.
        expect(text).toContain("engine: generate");
        expect(text).toContain("router: dispatch to worker");
        expect(text).not.toContain("kv_router.route_request");
        const titles = await lanes.evaluateAll((ls) => ls.map((l) => l.getAttribute("title") ?? ""));
        expect(titles.some((x) => x.includes("(span kv_router.route_request)"))).toBe(true);
        expect(text).toMatch(/end-to-end gap\s*1\.5 ms/);
        await shot(gap, `journey-summary-${width}-${scheme}.png`);
        await j.scrollIntoViewIfNeeded();
        await shot(j, `journey-request-${width}-${scheme}.png`);
      },
    );
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("opens a TensorRT-LLM bar of the timeline with its client lane above its engine segments", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-e2e-journey-trt-"));
    const gen = await generateAiperfRun(dir, { records: 6, concurrency: 1, seed: 3, csv: false });
    const clients = clientsOfAiperf(fs.readFileSync(gen.jsonlPath, "utf8"));
    const lines = [
      ...clients
        .slice(0, 4)
        .map((c, i) => workerRecordLine({ requestId: c.x, t: 800 + i, ms: AGGREGATED_MS })),
      workerRecordLine({ requestId: 9001, t: 805, ms: AGGREGATED_MS }),
    ];
    const worker = path.join(dir, "perf_metrics-server-node0-4242-20260801T120000Z.jsonl");
    fs.writeFileSync(worker, lines.join("\n") + "\n");
    const run = await apiUpload(
      t.app.url,
      [{ path: gen.jsonlPath }, { path: gen.summaryPath }, { path: worker }],
      {
        name: "e2e client to TensorRT-LLM engine",
      },
    );
    let res = await fetch(`${t.app.url}/api/runs/${run.id}/timeline`);
    for (let i = 0; i < 120 && res.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 500));
      res = await fetch(`${t.app.url}/api/runs/${run.id}/timeline`);
    }
    const p = decodeTimeline(timelineWireSchema.parse(await res.json()));
    expect(p.source).toBe("trtllm");
    let joined = -1;
    let alone = -1;
    let e2eGap: number | null = null;
    for (const b of p.bars.id) {
      const j = await (await fetch(`${t.app.url}/api/runs/${run.id}/timeline/requests/${b}/journey`)).json();
      if (j.xRequestId === clients[1].x) [joined, e2eGap] = [b, j.gaps.e2eMs];
      if (j.xRequestId === null) alone = b;
    }
    expect(e2eGap).toBeCloseTo(clients[1].e2eMs - 90, 3);
    expect(joined).toBeGreaterThanOrEqual(0);
    expect(alone).toBeGreaterThanOrEqual(0);

    await looks.forEachLook(
      `${t.app.url}/runs/${run.id}?view=timeline&req=${joined}`,
      async (page, { width, scheme }) => {
        const gap = page.getByTestId("journey-summary");
        await gap.waitFor({ timeout: 30_000 });
        expect(await gap.textContent()).toContain(
          "4 of 6 client requests joined by the client's request id: 4 to TensorRT-LLM's per-request perf metrics",
        );
        const detail = page.getByTestId("timeline-request-detail");
        const j = detail.getByTestId("request-journey");
        await j.waitFor({ timeout: 30_000 });
        const lanes = j.locator('ul[aria-label="lanes"] > li');
        expect(await lanes.first().textContent()).toContain("client (aiperf)");
        const text = (await j.textContent()) ?? "";
        expect(text).toContain("TensorRT-LLM server: arrival → end (its E2E)");
        expect(text).toContain("engine: ");
        expect(text).toContain(`end-to-end gap${formatMs(e2eGap)}`);
        // The lanes in words: the record field the request was joined by and the segments' keys
        // only in their tooltips.
        expect(text).not.toMatch(/\b(disagg_|ctx_)?request_id\b|\((ctx|gen|disagg)_[a-z_]+\)/);
        expect(await lanes.nth(1).getAttribute("title")).toMatch(/joined by (disagg_|ctx_)?request_id/);
        // "not measured" in three columns: the gap table neither runs past its card nor scrolls in it.
        const overflow = await gap.evaluate((el) => {
          // The card and every box of the table's body (its screen-reader caption and header,
          // 1 px wide when stacked, aside).
          const boxes = [el, ...el.querySelectorAll("div, table, tbody, tbody tr, tbody td")];
          return Math.max(...boxes.map((e) => e.scrollWidth - e.clientWidth));
        });
        expect(overflow, `the gap table at ${width} px scrolls inside its box`).toBeLessThanOrEqual(0);
        await shot(gap, `journey-trtllm-summary-${width}-${scheme}.png`);
        await j.scrollIntoViewIfNeeded();
        await shot(detail, `journey-trtllm-request-${width}-${scheme}.png`);
      },
    );
    await looks.forEachLook(
      `${t.app.url}/runs/${run.id}?view=timeline&req=${alone}`,
      async (page, { width, scheme }) => {
        const j = page.getByTestId("timeline-request-detail").getByTestId("request-journey");
        await j.waitFor({ timeout: 30_000 });
        const text = (await j.textContent()) ?? "";
        expect(text).toContain("Milliseconds from the server's arrival");
        expect(text).toContain(
          "perf_metrics-server-node0-4242-20260801T120000Z.jsonl has no request id the client's requests also carry, and profile_export.jsonl holds none of this request's ids (disagg request id none, request id 9001, ctx request id none)",
        );
        expect(await j.locator('ul[aria-label="lanes"] > li').first().textContent()).toContain(
          "TensorRT-LLM server",
        );
        await j.scrollIntoViewIfNeeded();
        await shot(j, `journey-trtllm-alone-${width}-${scheme}.png`);
      },
    );
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("draws a TensorRT-LLM request's time events per role on its axis, the other host's clock offset named", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-e2e-journey-events-"));
    const ids = [0, 1, 2].map((i) =>
      snowflakeId({ monotonicMs: 1_780_000_000_000 + i, node: 3, counter: i }),
    );
    const gen = await generateAiperfRun(dir, { records: 3, concurrency: 1, seed: 21, csv: false });
    let jsonl = fs.readFileSync(gen.jsonlPath, "utf8");
    clientsOfAiperf(jsonl).forEach((c, i) => (jsonl = jsonl.split(c.x).join(String(ids[i]))));
    fs.writeFileSync(gen.jsonlPath, jsonl);
    const files: Array<[string, string]> = [
      [
        "perf_metrics-disagg-node0-77-20260801T120000Z.jsonl",
        ids.map((id, i) => perfRecord(id, i)).join("\n") + "\n",
      ],
      ["disagg_router_pid31.jsonl", jsonLines(ids.flatMap((id, i) => routerLines(id, i)))],
      ["time_events_rank0_pid11.jsonl", jsonLines(ids.flatMap((id, i) => ctxLines(id, i)))],
      ["time_events_rank0_pid22.jsonl", jsonLines(ids.flatMap((id, i) => genLines(id, i, 0)))],
    ];
    for (const [name, text] of files) fs.writeFileSync(path.join(dir, name), text);
    const run = await apiUpload(
      t.app.url,
      [
        { path: gen.jsonlPath },
        { path: gen.summaryPath },
        ...files.map(([name]) => ({ path: path.join(dir, name) })),
      ],
      { name: "e2e TensorRT-LLM time events" },
    );
    let res = await fetch(`${t.app.url}/api/runs/${run.id}/timeline`);
    for (let i = 0; i < 120 && res.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 500));
      res = await fetch(`${t.app.url}/api/runs/${run.id}/timeline`);
    }
    const p = decodeTimeline(timelineWireSchema.parse(await res.json()));
    let rid = -1;
    for (const b of p.bars.id) {
      const j = await (await fetch(`${t.app.url}/api/runs/${run.id}/timeline/requests/${b}/journey`)).json();
      if (j.xRequestId === String(ids[0])) rid = b;
    }
    expect(rid).toBeGreaterThanOrEqual(0);
    await looks.forEachLook(
      `${t.app.url}/runs/${run.id}?view=timeline&req=${rid}`,
      async (page, { width, scheme }) => {
        const gap = page.getByTestId("journey-summary");
        await gap.waitFor({ timeout: 30_000 });
        expect(await gap.textContent()).toContain(
          "requests per role: router 3 (joined: 3 to the perf metrics",
        );
        const detail = page.getByTestId("timeline-request-detail");
        const j = detail.getByTestId("request-journey");
        await j.waitFor({ timeout: 30_000 });
        const text = (await j.textContent()) ?? "";
        expect(text).toContain("time events: router (5 events)");
        expect(text).toContain("time events: ctx (4 events)");
        expect(text).toContain("time events: gen (7 events)");
        expect(text).toContain("a time-events bar runs from its first event to its last");
        expect(text).toContain(
          "its clock is 214421.500 s from the perf metrics' (ctx_arrival against ctxArrival",
        );
        expect(await j.locator("[data-journey-events]").count()).toBe(3);
        await j.scrollIntoViewIfNeeded();
        await shot(j, `journey-time-events-${width}-${scheme}.png`);
      },
    );
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
