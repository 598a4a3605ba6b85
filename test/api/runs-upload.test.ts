import { describe, expect, it } from "vitest";
import { GET as listRuns, POST as upload } from "@/app/api/runs/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { fixture, freshAppEachTest, idParams, uploadRequest } from "../helpers/test-app";

freshAppEachTest();

describe("POST /api/runs", () => {
  const nameOf = async (id: string) =>
    (await (await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id))).json()).name;

  it("names an unnamed run for its model, backend and concurrency, not its first file", async () => {
    // aiperf's input config (qwen-c4 summary): model Qwen/Qwen3-0.6B, concurrency 4; no backend.
    const aiperf = await upload(
      uploadRequest([
        { name: "profile_export.jsonl", path: fixture("aiperf/qwen-c4__profile_export.jsonl") },
        { name: "profile_export_aiperf.json", path: fixture("aiperf/qwen-c4__profile_export_aiperf.json") },
      ]),
    );
    expect(await nameOf((await aiperf.json()).id)).toBe("Qwen/Qwen3-0.6B · concurrency 4");
    // TensorRT-LLM perf metrics name no model or concurrency: backend, serving mode, request count.
    const trt = await upload(
      uploadRequest([
        {
          name: "perf_metrics-disagg-reconstructed.jsonl",
          path: fixture("trtllm/perf_metrics-disagg-reconstructed.jsonl"),
        },
      ]),
    );
    expect(await nameOf((await trt.json()).id)).toBe(
      "trtllm · disaggregated · 1 request · perf_metrics-disagg-reconstructed.jsonl",
    );
  });

  it("tells unnamed runs without a load apart by their file (review of 3 Dec, item 22)", async () => {
    // Each of these TensorRT-LLM records is one request of one serving mode: without the file
    // name, three would read "trtllm · disaggregated · 1 request".
    const files = [
      "perf_metrics-disagg-reconstructed.jsonl",
      "time_breakdown_readme_disaggregated.json",
      "illustrative-perf_metrics-server-gen-worker.jsonl",
      "time_breakdown_readme_aggregated.json",
    ];
    const names: string[] = [];
    for (const name of files) {
      const res = await upload(uploadRequest([{ name, path: fixture(`trtllm/${name}`) }]));
      names.push(await nameOf((await res.json()).id));
    }
    expect(new Set(names).size).toBe(files.length);
    for (const [i, name] of names.entries()) expect(name).toMatch(new RegExp(`^trtllm · .* · ${files[i]}$`));
  });

  it("keeps the uploader's own name over the default", async () => {
    const res = await upload(
      uploadRequest(
        [{ name: "profile_export_aiperf.json", path: fixture("aiperf/qwen-c4__profile_export_aiperf.json") }],
        { name: "  baseline  " },
      ),
    );
    expect(await nameOf((await res.json()).id)).toBe("baseline");
  });

  it("stores a multi-file upload and reports each file's kind", async () => {
    const res = await upload(
      uploadRequest(
        [
          { name: "profile_export.jsonl", path: fixture("aiperf/qwen-c4__profile_export.jsonl") },
          { name: "profile_export_aiperf.json", path: fixture("aiperf/qwen-c4__profile_export_aiperf.json") },
          { name: "notes.txt", content: "hello" },
        ],
        { name: "my-run", labels: "baseline, h100" },
      ),
    );
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.url).toBe(`/runs/${body.id}`);
    expect(body.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(body.files.map((f: { kind: string }) => f.kind)).toEqual([
      "aiperf-records",
      "aiperf-summary",
      "unknown",
    ]);
    expect(body.files[0].records).toBe(10);

    const run = await (
      await getRun(new Request(`http://localhost/api/runs/${body.id}`), idParams(body.id))
    ).json();
    expect(run.name).toBe("my-run");
    expect(run.labels).toEqual(["baseline", "h100"]);
    expect(run.status).toBe("ready");

    const list = await (await listRuns(new Request("http://localhost/api/runs"))).json();
    expect(list.runs.map((r: { id: string }) => r.id)).toEqual([body.id]);
  });

  it("refuses an upload with no recognised file with 422 and stores nothing", async () => {
    const res = await upload(uploadRequest([{ name: "a.txt", content: "just text" }]));
    expect(res.status).toBe(422);
    expect((await res.json()).error.code).toBe("no_recognized_files");
    const list = await (await listRuns(new Request("http://localhost/api/runs"))).json();
    expect(list.runs).toEqual([]);
  });
});
