/**
 * The agent-sessions payload is bounded, and every session is still reachable a page at a time
 * (issue 31, "chart payloads are bounded"). Before, the payload carried up to 500 sessions and
 * 20,000 turns (234 KB for 1,500 trace rows, over 256 KiB for 3,000 sessions of 4 turns), so it grew
 * with the run's sessions and turns up to some 2 MB; the sessions past the cap could not be seen
 * at all. Now it keeps the longest sessions within 192 KiB of JSON and says how many more there
 * are, and GET /api/runs/{id}/agent-sessions?page=n serves every session from pages stored at
 * ingest. On each store, through the real route handlers; and at 50,000 sessions on the builder.
 *
 * Not a timing: bytes answered, sessions counted.
 */
import { describe, expect, it } from "vitest";
import { GET as sessionPage } from "@/app/api/runs/[id]/agent-sessions/route";
import { GET as chartRoute } from "@/app/api/runs/[id]/charts/[key]/route";
import { agentSessionPageWireSchema, agentSessionsPayloadSchema } from "@/lib/api/agent-sessions";
import { AGENT_SESSIONS_CHART } from "@/lib/api/chart-catalog";
import type { DynamoTraceRequest } from "@/lib/formats/dynamo-request-trace";
import { agentSessionCharts } from "@/lib/ingest/analyzers/agent-session-charts";
import { agentSessionsFromTrace } from "@/lib/metrics/agent-sessions";
import { storedText } from "@/lib/store/chart-payloads";
import { dynamoRequestTrace } from "../generators/dynamo-request-trace.mjs";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { uploadRun, waitForDrilldown } from "../helpers/test-app";

/** The most the agent-sessions chart may answer, whatever the run. */
const SERVED_BOUND = 256 * 1024;
const SESSIONS = 3_000;
const TURNS = 4;

describe.each(TEST_STORES)("agent sessions are bounded and paged (%s)", (_store, pgUrl) => {
  useStoreTestApp(pgUrl);

  it("serves a bounded payload that says how many more, and every session by page", async () => {
    const trace = dynamoRequestTrace({ requests: SESSIONS * TURNS, turns: TURNS, seed: 5 });
    const id = await uploadRun([{ name: "run/dynamo-request-trace.jsonl", content: trace.text }]);
    await waitForDrilldown(id);

    const res = await chartRoute(
      new Request(`http://localhost/api/runs/${id}/charts/${AGENT_SESSIONS_CHART.key}`),
      { params: Promise.resolve({ id, key: AGENT_SESSIONS_CHART.key }) },
    );
    expect(res.status).toBe(200);
    const text = await res.text();
    console.log(`agent-sessions: ${Buffer.byteLength(text)} B for ${SESSIONS} sessions of ${TURNS} turns`);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(SERVED_BOUND);
    const d = agentSessionsPayloadSchema.parse(JSON.parse(text));
    expect(d.sessions.length + d.omitted).toBe(SESSIONS);
    expect(d.omitted).toBeGreaterThan(0);

    // Every session, a page at a time, each page bounded too.
    const ids = new Set<string>();
    let pages = 1;
    for (let page = 0; page < pages; page++) {
      const r = await sessionPage(
        new Request(`http://localhost/api/runs/${id}/agent-sessions?page=${page}`),
        {
          params: Promise.resolve({ id }),
        },
      );
      expect(r.status).toBe(200);
      const body = await r.text();
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(SERVED_BOUND);
      const p = agentSessionPageWireSchema.parse(JSON.parse(body));
      expect(p.complete).toBe(true);
      expect(p.total).toBe(SESSIONS);
      pages = p.pages;
      for (const s of p.sessions) ids.add(s.id);
    }
    expect(pages).toBeGreaterThan(1);
    expect(ids.size).toBe(SESSIONS);
    for (const s of d.sessions) expect(ids.has(s.id)).toBe(true);
    const past = await sessionPage(
      new Request(`http://localhost/api/runs/${id}/agent-sessions?page=${pages}`),
      {
        params: Promise.resolve({ id }),
      },
    );
    expect(past.status).toBe(404);
  }, 300_000);
});

describe("agent sessions at 50,000 sessions", () => {
  it("stores a payload under the bound and every session in pages", () => {
    const sessions = 50_000;
    const requests: DynamoTraceRequest[] = [];
    for (let s = 0; s < sessions; s++)
      for (let t = 0; t < 2 + (s % 7); t++)
        requests.push({
          lineNo: requests.length + 1,
          requestId: `r-${requests.length}`,
          xRequestId: null,
          model: "m",
          sessionId: `session-${s}`,
          parentSessionId: s % 3 === 2 ? `session-${s - 2}` : null,
          eventTimeMs: 1_000 * requests.length,
          receivedMs: 1_000 * requests.length - 500,
          inputTokens: 1000 + 300 * t,
          outputTokens: 100,
          cachedTokens: 512 * t,
          kvHitRate: 0.5,
          ttftMs: 40.123,
          totalTimeMs: 480.456,
          avgItlMs: 4.4,
          finishReason: "stop",
        });
    const built = agentSessionsFromTrace({ requests, tools: [], otherEvents: {} }, ["trace.jsonl"])!;
    const charts = agentSessionCharts(built);
    const payload = JSON.stringify(charts[AGENT_SESSIONS_CHART.key]);
    console.log(`agent-sessions: ${payload.length} characters for ${sessions} sessions`);
    expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(SERVED_BOUND);
    const d = agentSessionsPayloadSchema.parse(JSON.parse(payload));
    expect(d.sessions.length + d.omitted).toBe(sessions);
    const paged = Object.entries(charts).filter(([k]) => k.startsWith("agent-session-pages-"));
    // Each page is handed to the commit as the text it is stored as.
    const texts = paged.map(([, v]) => storedText(v));
    expect(texts.reduce((n, t) => n + (JSON.parse(t) as { sessions: unknown[] }).sessions.length, 0)).toBe(
      sessions,
    );
    for (const t of texts) expect(t.length).toBeLessThanOrEqual(SERVED_BOUND);
  });
});
