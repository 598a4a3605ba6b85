/**
 * Committing an ingest lets the event loop run between chart payloads, so the server keeps
 * answering reads while a large run commits, and the run is still not `ready` to anyone reading
 * then: only the final transaction makes it so. On SQLite and, when configured, on PostgreSQL.
 */
import { describe, expect, it } from "vitest";
import type { AppContext } from "@/lib/server/app-context";
import { newRunId } from "@/lib/store/ids";
import { getChartText } from "@/lib/store/chart-payloads";
import { commitRun, getRun, insertRun } from "@/lib/store/runs-repo";
import { PG_URL, usePgTestApp } from "../helpers/pg-schema";
import { freshAppEachTest } from "../helpers/test-app";

/**
 * Commits a run with two charts. Serialising the first schedules a macrotask that reads the run;
 * serialising the second notes whether that macrotask has already run, i.e. whether the commit
 * gave the event loop a turn in between.
 */
async function commitWithProbe(app: AppContext) {
  const id = newRunId();
  await insertRun(app.store.db, { id, name: "yield", labels: [], createdAt: 1, aggregatorVersion: 1 }, []);
  let readStarted = false;
  let statusRead: Promise<string | undefined> | undefined;
  let turnTaken: boolean | undefined;
  const first = {
    toJSON() {
      setImmediate(() => {
        readStarted = true;
        statusRead = getRun(app.store.db, id).then((r) => r?.status);
      });
      return { points: [1, 2, 3] };
    },
  };
  const second = {
    toJSON() {
      turnTaken = readStarted;
      return { points: [4] };
    },
  };
  await commitRun(app.store.db, id, {
    blocks: { warnings: [] } as never,
    backend: null,
    requestCount: null,
    aggregatorVersion: 1,
    files: [],
    charts: { a: first, b: second },
  });
  return { id, turnTaken, statusDuringCommit: await statusRead };
}

async function expectYieldingCommit(app: AppContext) {
  const { id, turnTaken, statusDuringCommit } = await commitWithProbe(app);
  expect(turnTaken).toBe(true);
  expect(statusDuringCommit).toBe("ingesting");
  expect((await getRun(app.store.db, id))?.status).toBe("ready");
  // The stored text is what JSON.stringify writes.
  expect(await getChartText(app.store.db, id, "a")).toBe('{"points":[1,2,3]}');
  expect(await getChartText(app.store.db, id, "b")).toBe('{"points":[4]}');
}

describe("commitRun (SQLite)", () => {
  const t = freshAppEachTest();
  it("yields between chart payloads and shows the run ready only at its final transaction", async () => {
    await expectYieldingCommit(t.app);
  });
});

describe.skipIf(!PG_URL)("commitRun (PostgreSQL)", () => {
  const t = usePgTestApp();
  it("yields between chart payloads and shows the run ready only at its final transaction", async () => {
    await expectYieldingCommit(t.app);
  });
});
