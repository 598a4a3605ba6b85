/**
 * A run's Dynamo spans are stored once (issue 31): as each request's root span (the summary) and
 * in pieces by x_request_id (one request's journey), no longer also as the whole list beside
 * them, which about doubled the run's span storage. A run stored before the pieces (the whole
 * list only) still answers, the same. And when a Dynamo trace's agent sessions replace aiperf's,
 * none of aiperf's session pages stays stored past the trace's; the payload's totals count every
 * session, the ones it leaves out included, as the paged route does. On each store.
 *
 * Not a timing: bytes stored per key, and the routes' answers.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as sessionPage } from "@/app/api/runs/[id]/agent-sessions/route";
import { GET as chartRoute } from "@/app/api/runs/[id]/charts/[key]/route";
import { GET as journey } from "@/app/api/runs/[id]/journey/route";
import { GET as requestJourney } from "@/app/api/runs/[id]/timeline/requests/[rid]/journey/route";
import {
  agentSessionPageWireSchema,
  agentSessionPagesIndexSchema,
  agentSessionsPayloadSchema,
} from "@/lib/api/agent-sessions";
import {
  AGENT_SESSION_PAGES,
  AGENT_SESSIONS_CHART,
  DYNAMO_SPAN_PIECES,
  DYNAMO_SPAN_ROOTS_CHART,
  DYNAMO_SPANS_CHART,
} from "@/lib/api/chart-catalog";
import { journeySummarySchema, requestJourneySchema } from "@/lib/api/request-journey";
import { getChartText } from "@/lib/store/chart-payloads";
import type { Db } from "@/lib/store/db";
import { generateMultiTurnRun } from "../generators/aiperf-multiturn.mjs";
import { dynamoRequestTrace } from "../generators/dynamo-request-trace.mjs";
import { uploadAiperfWithDynamo } from "../helpers/dynamo-journey";
import { storeSpansAsBefore } from "../helpers/dynamo-spans-before";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { readTimelineBars } from "../helpers/read-api";
import { idParams, uploadRun, waitForDrilldown } from "../helpers/test-app";

const RECORDS = 1200;

/** Characters stored per chart key of a run whose key starts with `prefix`. */
async function storedChars(db: Db, runId: string, prefix: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom("chart_data")
    .select(["key", "data"])
    .where("run_id", "=", runId)
    .where("key", "like", `${prefix}%`)
    .execute();
  return new Map(rows.map((r) => [r.key, String(r.data).length]));
}

const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

describe.each(TEST_STORES)("Dynamo spans and agent-session pages stored once (%s)", (_store, pgUrl) => {
  const env = useStoreTestApp(pgUrl);

  it("stores the spans as roots and pieces only, and a run stored with the whole list answers the same", async () => {
    const id = await uploadAiperfWithDynamo({ records: RECORDS, seed: 17 });
    await waitForDrilldown(id);
    const db = env.app.store.db;

    const pieces = sum(await storedChars(db, id, DYNAMO_SPAN_PIECES.index.key));
    const roots = (await getChartText(db, id, DYNAMO_SPAN_ROOTS_CHART.key))!.length;
    const spans = await storedChars(db, id, "dynamo-span");
    console.log(
      `span storage: ${sum(spans)} characters in ${spans.size} rows (pieces ${pieces}, roots ${roots}); whole list ${spans.get(DYNAMO_SPANS_CHART.key) ?? "not stored"}`,
    );
    expect(spans.has(DYNAMO_SPANS_CHART.key)).toBe(false);
    // Every span once, plus the roots (a tenth of it): not the whole list a second time.
    expect(sum(spans)).toBe(pieces + roots);
    expect(roots).toBeLessThan(pieces / 4);

    // The readers answer from roots and pieces: every request joined, one request's spans.
    const summary = async () =>
      journeySummarySchema.parse(
        await (await journey(new Request(`http://localhost/api/runs/${id}/journey`), idParams(id))).json(),
      );
    const s = await summary();
    expect(s.joined).toBe(RECORDS);
    expect(s.serverSource).toBe("spans");
    const bars = await readTimelineBars(id);
    const rids = [0, Math.floor(bars.id.length / 2), bars.id.length - 1].map((i) => String(bars.id[i]));
    const one = async (rid: string) => {
      const res = await requestJourney(
        new Request(`http://localhost/api/runs/${id}/timeline/requests/${rid}/journey`),
        { params: Promise.resolve({ id, rid }) },
      );
      expect(res.status).toBe(200);
      return requestJourneySchema.parse(await res.json());
    };
    const answers = [];
    for (const rid of rids) {
      const j = await one(rid);
      expect(j.lanes.some((l) => l.source === "spans")).toBe(true);
      answers.push(j);
    }
    // No view lists the spans: Compare's chart lists name no span payload.
    const keys = (await db.selectFrom("chart_data").select("key").where("run_id", "=", id).execute()).map(
      (r) => r.key,
    );
    for (const key of keys.filter((k) => k.startsWith("dynamo-span"))) {
      const res = await chartRoute(new Request(`http://localhost/api/runs/${id}/charts/${key}`), {
        params: Promise.resolve({ id, key }),
      });
      expect(res.status, key).toBe(404);
    }

    // A run stored before the pieces and the roots: the whole list only, read as before.
    const whole = await storeSpansAsBefore(db, id, { roots: false });
    expect(whole.length).toBeGreaterThan(pieces / 2);
    expect(await summary()).toEqual(s);
    for (const [i, rid] of rids.entries()) expect(await one(rid)).toEqual(answers[i]);
  }, 180_000);

  it("drops aiperf's session pages a Dynamo trace's replace, and totals every session", async () => {
    const gen = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-session-pages-"));
    let id: string;
    try {
      // aiperf's records: 2,400 conversations of 2 to 5 turns, many pages of sessions.
      const run = generateMultiTurnRun(gen, { conversations: 2400, minTurns: 2, maxTurns: 5, seed: 3 });
      // The trace: 1,200 sessions of 4 turns, fewer pages than aiperf's, more than the payload holds.
      const trace = dynamoRequestTrace({ requests: 4800, turns: 4, seed: 9 });
      id = await uploadRun([
        { name: "run/profile_export.jsonl", path: run.jsonlPath },
        { name: "run/profile_export_aiperf.json", path: run.summaryPath },
        { name: "run/dynamo-request-trace.jsonl", content: trace.text },
      ]);
    } finally {
      fs.rmSync(gen, { recursive: true, force: true });
    }
    await waitForDrilldown(id);
    const db = env.app.store.db;
    const index = agentSessionPagesIndexSchema.parse(
      JSON.parse((await getChartText(db, id, AGENT_SESSION_PAGES.index.key))!),
    );
    const stored = [...(await storedChars(db, id, `${AGENT_SESSION_PAGES.index.key}-`)).keys()];
    const numbers = stored
      .map((k) => Number(k.slice(AGENT_SESSION_PAGES.index.key.length + 1)))
      .sort((a, b) => a - b);
    console.log(
      `session pages: index says ${index.pages} of ${index.sessions} sessions; stored ${numbers.length}`,
    );
    expect(index.sessions).toBe(1200);
    // Every stored page is one the index reaches: none of aiperf's is left behind.
    expect(numbers).toEqual(Array.from({ length: index.pages }, (_, n) => n));

    // The totals count every session, as the paged route's total.
    const res = await chartRoute(
      new Request(`http://localhost/api/runs/${id}/charts/${AGENT_SESSIONS_CHART.key}`),
      { params: Promise.resolve({ id, key: AGENT_SESSIONS_CHART.key }) },
    );
    const p = agentSessionsPayloadSchema.parse(await res.json());
    expect(p.source).toBe("dynamo-request-trace");
    expect(p.omitted).toBeGreaterThan(0);
    const all = [];
    for (let page = 0; page < index.pages; page++) {
      const r = await sessionPage(
        new Request(`http://localhost/api/runs/${id}/agent-sessions?page=${page}`),
        {
          params: Promise.resolve({ id }),
        },
      );
      const w = agentSessionPageWireSchema.parse(await r.json());
      expect(w.total).toBe(p.totals.sessions);
      all.push(...w.sessions);
    }
    expect(p.totals.sessions).toBe(p.sessions.length + p.omitted);
    expect(p.totals.sessions).toBe(all.length);
    expect(p.totals.roots).toBe(all.filter((s) => s.parentId === null).length);
    expect(p.totals.turns).toBe(all.reduce((n, s) => n + s.turns.length, 0));
    expect(p.totals.turns).toBe(4800);
  }, 240_000);
});
