import { describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { requestListSchema } from "@/lib/api/aiperf-requests";
import {
  expectStoredSlowestMatchRows,
  getRequestList,
  slowestCaseRecords,
} from "../helpers/aiperf-slowest-case";
import { freshAppEachTest, uploadRequest } from "../helpers/test-app";

const t = freshAppEachTest();

describe("slowest requests stored at ingest", () => {
  it("answers the latency view's queries exactly as the row query does, ties and warmup included", async () => {
    await expectStoredSlowestMatchRows(t.app.store.db);
  });

  it("lists ties in line order and keeps every tied value at the cut-off", async () => {
    const res = await upload(
      uploadRequest([{ name: "profile_export.jsonl", content: slowestCaseRecords() }]),
    );
    const { id } = await res.json();
    const body = requestListSchema.parse(
      await (await getRequestList(id, "sort=ttft&order=desc&limit=20")).json(),
    );
    const ttfts = body.rows.map((r) => r.ttftMs!);
    expect(ttfts).toEqual([...ttfts].sort((a, b) => b - a));
    expect(ttfts[0]).toBe(50);
    for (let i = 1; i < body.rows.length; i++)
      if (ttfts[i] === ttfts[i - 1]) expect(body.rows[i].requestId! > body.rows[i - 1].requestId!).toBe(true);
  });
});
