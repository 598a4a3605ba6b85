/**
 * Uploads whose text is valid but unusual: lone-CR line ends, UTF-16 with a BOM, and a first
 * record longer than the detection window. Each is read like a plain UTF-8 LF file, and the
 * stored raw file downloads byte for byte as sent.
 */
import { describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { GET as download } from "@/app/api/runs/[id]/files/[fileId]/route";
import { POST as reingest } from "@/app/api/runs/[id]/reingest/route";
import { DETECT_HEAD_BYTES } from "@/lib/formats/detect";
import { freshAppEachTest, idParams, uploadRequest } from "../helpers/test-app";

function record(i: number, workerId = "worker_1"): string {
  return JSON.stringify({
    metadata: {
      session_num: i,
      x_request_id: `req-${i}`,
      request_start_ns: 1762551534797067827 + i * 1_000_000_000,
      request_end_ns: 1762551538441354976 + i * 1_000_000_000,
      worker_id: workerId,
      benchmark_phase: "profiling",
    },
    metrics: {
      input_sequence_length: { value: 100, unit: "tokens" },
      output_sequence_length: { value: 200, unit: "tokens" },
      time_to_first_token: { value: 30 + i, unit: "ms" },
      request_latency: { value: 3600 + i, unit: "ms" },
    },
    error: null,
  });
}

const records = (n: number, from = 0) => Array.from({ length: n }, (_, i) => record(from + i));

interface FileReport {
  id: string;
  kind: string;
  records: number;
  skipped: number;
  warnings: Array<{ line?: number; message: string }>;
}

/** Uploads one file; returns the run and its one file's report after checking the stored bytes. */
async function uploadOne(name: string, bytes: Buffer) {
  const res = await upload(uploadRequest([{ name, content: bytes }]));
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(201);
  const run = await (await getRun(new Request("http://localhost/x"), idParams(body.id))).json();
  expect(run.status).toBe("ready");
  const file = run.files[0] as FileReport;
  const raw = await download(new Request("http://localhost/x"), {
    params: Promise.resolve({ id: body.id, fileId: file.id }),
  });
  expect(Buffer.from(await raw.arrayBuffer()).equals(bytes)).toBe(true);
  return { id: body.id as string, run, file };
}

describe("unusual but valid text", () => {
  const t = freshAppEachTest();

  it("lone CR line ends read every record", async () => {
    const { file, run } = await uploadOne("cr-only.jsonl", Buffer.from(records(5).join("\r") + "\r"));
    expect(file.kind).toBe("aiperf-records");
    expect(file.records).toBe(5);
    expect(file.skipped).toBe(0);
    expect(run.requests.count).toBe(5);
  });

  it.each([
    ["utf16le", (s: string) => Buffer.concat([Buffer.of(0xff, 0xfe), Buffer.from(s, "utf16le")])],
    ["utf16be", (s: string) => Buffer.concat([Buffer.of(0xfe, 0xff), Buffer.from(s, "utf16le").swap16()])],
    ["utf8 BOM", (s: string) => Buffer.concat([Buffer.of(0xef, 0xbb, 0xbf), Buffer.from(s)])],
  ])("%s with a BOM is decoded, on upload and on re-ingest", async (_, encode) => {
    const { id, file } = await uploadOne("profile_export.jsonl", encode(records(5).join("\n") + "\n"));
    expect(file.kind).toBe("aiperf-records");
    expect(file.records).toBe(5);
    expect(file.skipped).toBe(0);
    const again = await reingest(new Request("http://localhost/x", { method: "POST" }), idParams(id));
    expect(again.status).toBe(200);
    const run = await (await getRun(new Request("http://localhost/x"), idParams(id))).json();
    expect(run.files[0].records).toBe(5);
  });

  it("a UTF-16 server-metrics scrape file is read as well", async () => {
    const scrape = (i: number) =>
      JSON.stringify({
        endpoint_url: "http://localhost:8000/metrics",
        timestamp_ns: 1763591215220757503 + i * 1e9,
        metrics: { "vllm:prompt_tokens_total": [{ value: 100 * i }] },
      });
    const text = [0, 1, 2].map(scrape).join("\r\n") + "\r\n";
    const { file } = await uploadOne(
      "server_metrics_export.jsonl",
      Buffer.concat([Buffer.of(0xff, 0xfe), Buffer.from(text, "utf16le")]),
    );
    expect(file.kind).toBe("aiperf-server-metrics");
    expect(file.records).toBe(3);
  });

  const huge = () =>
    Buffer.from([record(0, "W".repeat(2 * DETECT_HEAD_BYTES)), ...records(3, 1)].join("\n") + "\n");

  it("a first record longer than the detection window is recognised and kept", async () => {
    const { file } = await uploadOne("profile_export.jsonl", huge());
    expect(file.kind).toBe("aiperf-records");
    expect(file.records).toBe(4);
  });

  it("a first record over the line-length limit is skipped by that rule, the rest kept", async () => {
    await t.reopen({ RUNLENS_MAX_LINE_BYTES: String(DETECT_HEAD_BYTES) });
    const { file } = await uploadOne("profile_export.jsonl", huge());
    expect(file.kind).toBe("aiperf-records");
    expect(file.records).toBe(3);
    expect(file.skipped).toBe(1);
    expect(file.warnings[0]).toEqual({ line: 1, message: "skipped line: longer than the line-length limit" });
  });
});
