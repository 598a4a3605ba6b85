/**
 * Issue 31, "A run being re-ingested says so on every route": a trace export that has begun
 * streaming when a re-ingest of its run starts. The route's guard looks at the run before the
 * read and once the handler has returned, but the trace's rows are read as its body is sent,
 * after both looks: a re-ingest begun meanwhile left a file of the old rows up to that point and
 * whatever the re-ingest had written or left after it, closed as a valid trace. Now each piece
 * looks at the run again: the body ends in a global instant event naming the failure, the JSON
 * is left unclosed, and the stream fails (the client's download fails). On each store, the
 * re-ingest's first step (the run marked `ingesting`) made between two pieces of the body.
 */
import { describe, expect, it } from "vitest";
import { POST as reingestRoute } from "@/app/api/runs/[id]/reingest/route";
import { DELETE as deleteRoute } from "@/app/api/runs/[id]/route";
import { GET as getTrace } from "@/app/api/runs/[id]/trace.json/route";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { idParams, uploadGeneratedAiperf, waitForDrilldown } from "../helpers/test-app";

const RECORDS = 3000;

describe.each(TEST_STORES)("a trace export raced by a re-ingest (%s)", (_store, pgUrl) => {
  const env = useStoreTestApp(pgUrl);

  it("ends in a failure the client sees, with an error record, once the run began re-ingesting", async () => {
    const id = await uploadGeneratedAiperf({ records: RECORDS, concurrency: 8, seed: 17 });
    await waitForDrilldown(id);
    const db = env.app.store.db;
    const trace = () => getTrace(new Request(`http://localhost/api/runs/${id}/trace.json`), idParams(id));

    // Nothing changed during the export: the whole trace, valid JSON.
    const calm = await trace();
    expect(calm.status).toBe(200);
    const whole = JSON.parse(await calm.text()) as { otherData: { requestsInTrace: string } };
    expect(Number(whole.otherData.requestsInTrace)).toBeGreaterThan(1000);

    const res = await trace();
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    // The opening and the first requests' events…
    for (let pieces = 0; pieces < 2; pieces++) {
      const r = await reader.read();
      expect(r.done).toBe(false);
      text += decoder.decode(r.value, { stream: true });
    }
    // …then a re-ingest begins.
    await db.updateTable("runs").set({ status: "ingesting" }).where("id", "=", id).execute();
    let failure: unknown = null;
    try {
      for (let r = await reader.read(); !r.done; r = await reader.read())
        text += decoder.decode(r.value, { stream: true });
    } catch (err) {
      failure = err;
    }
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as Error).message)).toMatch(/trace export interrupted/);
    // The body says why it ends: its last event, a global instant naming the failure…
    const last = text.trimEnd().split("\n").at(-1)!;
    const event = JSON.parse(last) as { ph: string; s: string; args: { error: string; message: string } };
    expect(event).toMatchObject({ ph: "i", s: "g", args: { error: "drilldown_building" } });
    expect(event.args.message).toMatch(/incomplete/);
    // …and is not a trace a parser takes for whole.
    expect(() => JSON.parse(text)).toThrow();
    expect(text.length).toBeLessThan(JSON.stringify(whole).length);
  }, 180_000);

  /**
   * The trace read slowly, a piece at a time, while the real re-ingest (or delete) route runs:
   * the client's body fails, and what it received does not parse as a trace.
   */
  async function raceTrace(
    id: string,
    act: () => Promise<Response>,
  ): Promise<{ text: string; failure: unknown; acted: Response }> {
    const res = await getTrace(new Request(`http://localhost/api/runs/${id}/trace.json`), idParams(id));
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    for (let pieces = 0; pieces < 2; pieces++) {
      const r = await reader.read();
      expect(r.done).toBe(false);
      text += decoder.decode(r.value, { stream: true });
    }
    const acting = act();
    // The re-ingest's claim (or the delete) lands before the reader asks for its next piece.
    await waitUntilRunChanged(id);
    let failure: unknown = null;
    try {
      for (let r = await reader.read(); !r.done; r = await reader.read())
        text += decoder.decode(r.value, { stream: true });
    } catch (err) {
      failure = err;
    }
    return { text, failure, acted: await acting };
  }

  async function waitUntilRunChanged(id: string): Promise<void> {
    for (let i = 0; i < 6000; i++) {
      const run = await env.app.store.db
        .selectFrom("runs")
        .select(["status", "drilldown_ready_at"])
        .where("id", "=", id)
        .executeTakeFirst();
      if (!run || run.status !== "ready") return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error("the run never changed");
  }

  it("fails the body when the re-ingest route starts while the trace streams", async () => {
    const id = await uploadGeneratedAiperf({ records: RECORDS, concurrency: 8, seed: 23 });
    await waitForDrilldown(id);
    const { text, failure, acted } = await raceTrace(id, () =>
      reingestRoute(
        new Request(`http://localhost/api/runs/${id}/reingest`, { method: "POST" }),
        idParams(id),
      ),
    );
    expect(acted.status).toBe(200);
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as Error).message)).toMatch(/trace export interrupted/);
    expect(() => JSON.parse(text)).toThrow();
    // Once the re-ingest is done, the trace downloads whole again.
    await waitForDrilldown(id);
    const again = await getTrace(new Request(`http://localhost/api/runs/${id}/trace.json`), idParams(id));
    expect(again.status).toBe(200);
    expect(JSON.parse(await again.text())).toHaveProperty("traceEvents");
  }, 180_000);

  it("fails the body when the run is deleted while the trace streams", async () => {
    const id = await uploadGeneratedAiperf({ records: RECORDS, concurrency: 8, seed: 29 });
    await waitForDrilldown(id);
    const { text, failure, acted } = await raceTrace(id, () =>
      deleteRoute(new Request(`http://localhost/api/runs/${id}`, { method: "DELETE" }), idParams(id)),
    );
    expect(acted.status).toBe(204);
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as Error).message)).toMatch(/trace export interrupted: this run was deleted/);
    expect(() => JSON.parse(text)).toThrow();
    const last = JSON.parse(text.trimEnd().split("\n").at(-1)!) as { args: { error: string } };
    expect(last.args.error).toBe("not_found");
  }, 180_000);
});
