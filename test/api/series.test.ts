/**
 * Series fields, the series routes, the verdict and gate routes and the compare page's noise
 * verdicts, through the real handlers on a real SQLite file. Runs are aiperf exports from
 * test/generators/aiperf.mjs (record layout of aiperf's profile_export.jsonl), TTFT uniform on
 * [20, 120) ms; the regressed run multiplies every TTFT by 1.1.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as compare } from "@/app/api/compare/route";
import { POST as gate } from "@/app/api/gate/route";
import { GET as getRun, PATCH } from "@/app/api/runs/[id]/route";
import { GET as verdicts } from "@/app/api/runs/[id]/verdicts/route";
import { GET as listRuns, POST as upload } from "@/app/api/runs/route";
import { GET as seriesDetail } from "@/app/api/series/[...name]/route";
import { GET as seriesList } from "@/app/api/series/route";
import { compareResponseSchema } from "@/lib/api/compare-schemas";
import { gateResultSchema, seriesDetailSchema } from "@/lib/api/regression-schemas";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { freshAppEachTest, idParams, uploadRequest } from "../helpers/test-app";

freshAppEachTest();

const SERIES = "nightly/llama-8b/h100/c8";

async function artifacts(seed: number, ttftScale = 1) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "series-"));
  await generateAiperfRun(dir, { records: 2000, seed, csv: false, ttftScale });
  return ["profile_export.jsonl", "profile_export_aiperf.json"].map((name) => ({
    name,
    path: path.join(dir, name),
  }));
}

async function uploadInto(seed: number, fields: Record<string, string>, ttftScale = 1): Promise<string> {
  const res = await upload(uploadRequest(await artifacts(seed, ttftScale), fields));
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const verdictsOf = async (id: string, qs: string) => {
  const res = await verdicts(new Request(`http://localhost/api/runs/${id}/verdicts?${qs}`), idParams(id));
  return {
    status: res.status,
    headers: res.headers,
    body: res.status === 200 ? gateResultSchema.parse(await res.json()) : await res.json(),
  };
};

describe("series", () => {
  it("stores series, commit and branch from the form, edits them with PATCH, and lists the series", async () => {
    const id = await uploadInto(1, { series: SERIES, commit: "abc1234", branch: "main", name: "r1" });
    const summary = await (await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id))).json();
    expect([summary.series, summary.commit, summary.branch]).toEqual([SERIES, "abc1234", "main"]);

    const patched = await PATCH(
      new Request(`http://localhost/api/runs/${id}`, {
        method: "PATCH",
        body: JSON.stringify({ series: "pr/1234", commit: null }),
        headers: { "content-type": "application/json" },
      }),
      idParams(id),
    );
    expect(patched.status).toBe(200);
    const after = await patched.json();
    expect([after.series, after.commit, after.branch]).toEqual(["pr/1234", null, "main"]);

    const list = await (await seriesList(new Request("http://localhost/api/series"))).json();
    expect(list.series.map((s: { name: string }) => s.name)).toEqual(["pr/1234"]);
    expect(list.series[0].runCount).toBe(1);
  });

  it("refuses a bad series name with 400 and stores no run", async () => {
    const res = await upload(uploadRequest(await artifacts(1), { series: "has space" }));
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("bad_series");
    const runs = await (await listRuns(new Request("http://localhost/api/runs"))).json();
    expect(runs.runs).toEqual([]);
  });

  it("judges an unchanged run within noise and a 10% TTFT regression as regressed", async () => {
    const ids = [];
    for (const seed of [1, 2, 3, 4]) ids.push(await uploadInto(seed, { series: SERIES }));
    const steady = await verdictsOf(ids[3], "baseline=last:3&failOn=ttft.p50>5%25");
    expect(steady.status).toBe(200);
    expect(steady.body.exitCode).toBe(0);
    const ttft = steady.body.judgement.verdicts.find((v: { metric: string }) => v.metric === "ttft.p50");
    expect(ttft.verdict).toBe("within noise");
    expect(ttft.samples).toEqual({ run: 2000, baseline: 6000, unit: "requests" });
    expect([ttft.seed, ttft.resamples]).toEqual([1, 2000]);

    const slow = await uploadInto(5, { series: SERIES }, 1.1);
    const judged = await verdictsOf(slow, "baseline=last:3&failOn=ttft.p50>5%25");
    expect(judged.body.exitCode).toBe(1);
    expect(judged.headers.get("Runlens-Gate")).toBe("fail");
    const v = judged.body.judgement.verdicts.find((x: { metric: string }) => x.metric === "ttft.p50");
    expect(v.verdict).toBe("regressed");
    expect(v.effect).toBeGreaterThan(0.05);
    expect(v.low).toBeGreaterThan(0);
    expect(judged.body.markdown).toMatch(/^### Runlens: regression/);
    expect(judged.body.markdown).toContain("| TTFT p50 |");

    // Run-level figures: three earlier runs are enough history with last:3.
    const tput = judged.body.judgement.verdicts.find((x: { metric: string }) => x.metric === "throughput");
    expect(tput.method).toMatch(/median absolute deviation of 3 earlier runs/);
    const one = await verdictsOf(ids[1], "baseline=last");
    expect(
      one.body.judgement.verdicts.find((x: { metric: string }) => x.metric === "throughput").verdict,
    ).toBe("not enough history");
  });

  it("cannot judge a run without a series against `last` (exit 2) and refuses a bad rule (400)", async () => {
    const id = await uploadInto(1, {});
    const res = await verdictsOf(id, "baseline=last");
    expect(res.body.exitCode).toBe(2);
    expect(res.body.reasons[0]).toMatch(/no baseline: the run belongs to no series/);
    const bad = await verdictsOf(id, "failOn=ttft.p99<5%25");
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/gets worse as it rises/);
  });

  it("serves the series with bands and verdicts, and the compare table's noise verdicts", async () => {
    const ids = [];
    for (const seed of [1, 2, 3, 4]) ids.push(await uploadInto(seed, { series: SERIES }));
    ids.push(await uploadInto(5, { series: SERIES }, 1.2));
    const parts = SERIES.split("/");
    const res = await seriesDetail(new Request(`http://localhost/api/series/${SERIES}?stat=p50`), {
      params: Promise.resolve({ name: parts }),
    } as never);
    expect(res.status).toBe(200);
    const body = seriesDetailSchema.parse(await res.json());
    expect(body.runs.map((r) => r.id)).toEqual(ids);
    expect(body.runs[0].verdicts).toEqual([]);
    expect(body.runs[2].verdicts).toEqual([]);
    expect(body.runs[3].bands["ttft.p50"]).not.toBeNull();
    expect(body.runs[4].verdicts.find((v) => v.metric === "ttft.p50")!.verdict).toBe("regressed");
    expect(body.judged).toBe("all");

    // judge=run: the stored figures and run-level verdicts alone, no request read.
    const quick = seriesDetailSchema.parse(
      await (
        await seriesDetail(new Request(`http://localhost/api/series/${SERIES}?stat=p50&judge=run`), {
          params: Promise.resolve({ name: parts }),
        } as never)
      ).json(),
    );
    expect(quick.judged).toBe("run");
    expect(quick.runs.map((r) => r.metrics)).toEqual(body.runs.map((r) => r.metrics));
    expect(quick.runs.map((r) => r.bands)).toEqual(body.runs.map((r) => r.bands));
    expect(quick.runs[4].verdicts.map((v) => v.kind)).toEqual(
      body.runs[4].verdicts.filter((v) => v.kind === "run").map((v) => v.kind),
    );
    expect(quick.runs[4].verdicts.some((v) => v.kind === "requests")).toBe(false);

    const cmp = await compare(
      new Request(`http://localhost/api/compare?runs=${ids[3]},${ids[4]}&stat=p50&noise=last:3`),
    );
    const data = compareResponseSchema.parse(await cmp.json());
    const row = data.rows.find((r) => r.key === "ttft")!;
    expect(row.cells[1].noise!.verdict).toBe("regressed");
    expect(row.cells[0].noise!.verdict).toBe("within noise");
    const plain = compareResponseSchema.parse(
      await (
        await compare(new Request(`http://localhost/api/compare?runs=${ids[3]},${ids[4]}&stat=p50`))
      ).json(),
    );
    expect(plain.rows.find((r) => r.key === "ttft")!.cells[1].noise!.verdict).toBe("regressed");
  });

  it("orders a series by the uploader's order key, for its page and its `last` baseline, and edits it with PATCH", async () => {
    // Uploaded out of order: v1.10.0 first. As text, "v1.10.0" < "v1.2.0"; as versions it is last.
    const ids = [];
    for (const [seed, order] of [
      [1, "v1.10.0"],
      [2, "v1.2.0"],
      [3, "v1.9.0"],
    ] as const)
      ids.push(await uploadInto(seed, { series: SERIES, order }));
    const detail = async () => {
      const res = await seriesDetail(new Request(`http://localhost/api/series/${SERIES}`), {
        params: Promise.resolve({ name: SERIES.split("/") }),
      } as never);
      return seriesDetailSchema.parse(await res.json()).runs;
    };
    expect((await detail()).map((r) => [r.id, r.order])).toEqual([
      [ids[1], "v1.2.0"],
      [ids[2], "v1.9.0"],
      [ids[0], "v1.10.0"],
    ]);
    const summary = async (id: string) =>
      (await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id))).json();
    expect((await summary(ids[0])).seriesPosition).toEqual({ at: 3, of: 3 });
    expect((await summary(ids[1])).seriesPosition).toEqual({ at: 1, of: 3 });
    const last = await verdictsOf(ids[0], "baseline=last");
    expect(last.body.judgement.baseline.runIds).toEqual([ids[2]]);

    const patch = (id: string, body: unknown) =>
      PATCH(
        new Request(`http://localhost/api/runs/${id}`, {
          method: "PATCH",
          body: JSON.stringify(body),
          headers: { "content-type": "application/json" },
        }),
        idParams(id),
      );
    const moved = await patch(ids[1], { order: "2.0.0-rc.1" });
    expect(moved.status).toBe(200);
    const movedRun = await moved.json();
    expect([movedRun.order, movedRun.seriesPosition]).toEqual(["2.0.0-rc.1", { at: 3, of: 3 }]);
    expect((await detail()).map((r) => r.id)).toEqual([ids[2], ids[0], ids[1]]);
    expect((await verdictsOf(ids[1], "baseline=last")).body.judgement.baseline.runIds).toEqual([ids[0]]);

    const bad = await patch(ids[1], { order: "next tuesday" });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toMatch(/a number .* a version .* ISO date/);
    expect((await detail()).map((r) => r.id)).toEqual([ids[2], ids[0], ids[1]]);
  });

  it("refuses an order key that is none of a number, a version or a date, and stores no run", async () => {
    const res = await upload(uploadRequest(await artifacts(1), { series: SERIES, order: "abc1234" }));
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe("bad_series");
    expect(body.error.message).toMatch(/^invalid order: a number \(build 1234\)/);
    const runs = await (await listRuns(new Request("http://localhost/api/runs"))).json();
    expect(runs.runs).toEqual([]);
  });

  it("POST /api/gate uploads into the series and answers the Markdown gate", async () => {
    await uploadInto(1, { series: SERIES });
    const req = uploadRequest(await artifacts(2));
    const url = `http://localhost/api/gate?series=${encodeURIComponent(SERIES)}&commit=def5678&baseline=last&format=markdown`;
    const res = await gate(
      new Request(url, {
        method: "POST",
        body: req.body,
        headers: req.headers,
        duplex: "half",
      } as RequestInit),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("Runlens-Exit-Code")).toBe("0");
    const md = await res.text();
    expect(md).toMatch(/^### Runlens: no regression/);
    expect(md).toContain(`against the last run of ${SERIES}`);
  });
});
