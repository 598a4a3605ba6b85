/**
 * Goodput per sweep on the real qwen c1/c2/c4 aiperf records (10 per run). Hand-counted from the
 * records' time_to_first_token values: ≤ 36 ms per request holds for 10 of c1's, 3 of c2's
 * (34.81, 35.48, 35.49) and 1 of c4's (34.27); their TTFT p99 is 32.8, 57.8 and 70.7 ms.
 */
import { describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { GET as goodput } from "@/app/api/sweeps/[id]/goodput/route";
import { fixture, freshAppEachTest, idParams, uploadRequest } from "../helpers/test-app";

freshAppEachTest();

async function qwenSweep(): Promise<string> {
  const files = [1, 2, 4].flatMap((c) =>
    ["profile_export.jsonl", "profile_export_aiperf.json"].map((f) => ({
      name: `q/qwen-c${c}/${f}`,
      path: fixture(`aiperf/qwen-c${c}__${f}`),
    })),
  );
  return (await (await upload(uploadRequest(files))).json()).sweep.id;
}

const ask = (id: string, slo: string) =>
  goodput(
    new Request(`http://localhost/api/sweeps/${id}/goodput?slo=${encodeURIComponent(slo)}`),
    idParams(id),
  );

describe("GET /api/sweeps/{id}/goodput", () => {
  it("counts every request per run and finds the highest concurrency meeting every SLO", async () => {
    const id = await qwenSweep();
    const perRequest = await (await ask(id, "ttft:req:36")).json();
    expect(perRequest.runs.map((r: { concurrency: number }) => r.concurrency)).toEqual([1, 2, 4]);
    expect(perRequest.runs.map((r: { goodput: { meeting: number } }) => r.goodput.meeting)).toEqual([
      10, 3, 1,
    ]);
    expect(perRequest.runs.map((r: { meetsAll: boolean }) => r.meetsAll)).toEqual([true, false, false]);
    expect(perRequest.highestMeeting.concurrency).toBe(1);

    const p99 = await (await ask(id, "ttft:p99:60")).json();
    expect(p99.runs.map((r: { meetsAll: boolean }) => r.meetsAll)).toEqual([true, true, false]);
    expect(p99.highestMeeting.concurrency).toBe(2);

    const none = await (await ask(id, "ttft:req:1")).json();
    expect(none.highestMeeting).toBeNull();
  });

  it("refuses a malformed SLO", async () => {
    const id = await qwenSweep();
    expect((await ask(id, "ttft:p99")).status).toBe(400);
  });
});
