/**
 * Every read route, given arbitrary ids, keys and query strings (generated), answers a clear
 * 2xx/3xx/4xx: never a 500, never a stack trace.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as compare } from "@/app/api/compare/route";
import { GET as listRuns, POST as upload } from "@/app/api/runs/route";
import { GET as aiperfRequests } from "@/app/api/runs/[id]/aiperf/requests/route";
import { GET as chart } from "@/app/api/runs/[id]/charts/[key]/route";
import { GET as download } from "@/app/api/runs/[id]/files/[fileId]/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { GET as trtllmRequest } from "@/app/api/runs/[id]/trtllm/requests/[idx]/route";
import { GET as trtllmRequests } from "@/app/api/runs/[id]/trtllm/requests/route";
import { uploadRequest, useTestApp } from "../helpers/test-app";

const VALID_TRT =
  '{"request_id":1,"perf_metrics":{"timing_metrics":{"arrival_time":1.0,"first_scheduled_time":1.01,"first_token_time":1.02,"last_token_time":1.05}}}\n';

let cleanup: () => Promise<void>;
let realId: string;
beforeAll(async () => {
  ({ cleanup } = await useTestApp());
  const res = await upload(uploadRequest([{ name: "perf_metrics-0.jsonl", content: VALID_TRT }]));
  realId = (await res.json()).id;
});
afterAll(async () => cleanup());

const idLike = () =>
  fc.oneof(
    fc.string({ maxLength: 80 }),
    fc.stringMatching(/^[A-Za-z0-9_-]{8,64}$/),
    fc.constantFrom(
      "../../etc/passwd",
      "%00",
      "' or 1=1 --",
      "a".repeat(5000),
      "\u0000\u0001",
      "🙂🙂🙂🙂🙂🙂🙂🙂",
    ),
    fc.constant("REAL"),
  );
const query = fc.dictionary(
  fc.constantFrom("limit", "cursor", "q", "label", "sort", "order", "runs", "baseline", "x"),
  fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom("-1", "0", "1e309", "NaN", "2001", "%", "'", ",,,")),
);

function url(path: string, q: Record<string, string>): string {
  const u = new URL(`http://localhost${path}`);
  for (const [k, v] of Object.entries(q)) u.searchParams.set(k, v);
  return u.toString();
}

async function expectClean(res: Response, label: string): Promise<void> {
  expect(res.status, label).toBeLessThan(500);
  if (res.status >= 400) {
    const text = await res.text();
    expect(() => JSON.parse(text), label).not.toThrow();
    expect(text, label).not.toMatch(/\bat .+:\d+:\d+|node_modules|\/tmp\//);
  }
}

describe("read routes on arbitrary input", () => {
  it("never answer 500", async () => {
    await fc.assert(
      fc.asyncProperty(idLike(), idLike(), query, async (rawId, other, q) => {
        const id = rawId === "REAL" ? realId : rawId;
        const second = other === "REAL" ? realId : other;
        const p = <T extends object>(v: T) => ({ params: Promise.resolve(v) });
        await expectClean(await listRuns(new Request(url("/api/runs", q))), `list ${JSON.stringify(q)}`);
        await expectClean(await getRun(new Request(url(`/api/runs/x`, q)), p({ id })), `run ${id}`);
        await expectClean(
          await chart(new Request(url("/x", q)), p({ id, key: second })),
          `chart ${id} ${second}`,
        );
        await expectClean(await download(new Request(url("/x", q)), p({ id, fileId: second })), `file ${id}`);
        await expectClean(
          await trtllmRequests(new Request(url("/x", q)), p({ id })),
          `trt ${JSON.stringify(q)}`,
        );
        await expectClean(
          await trtllmRequest(new Request(url("/x", q)), p({ id, idx: second })),
          `trt idx ${second}`,
        );
        await expectClean(
          await aiperfRequests(new Request(url("/x", q)), p({ id })),
          `aiperf ${JSON.stringify(q)}`,
        );
        await expectClean(
          await compare(new Request(url("/api/compare", { ...q, runs: `${id},${second}` }))),
          `compare`,
        );
      }),
      { numRuns: 150 },
    );
  });
});
