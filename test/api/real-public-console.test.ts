/**
 * Console text that benchmark tools print and users upload beside their result files (review
 * N5), read in place from ../shared/fixtures/real-public/ and uploaded through the real route:
 * `vllm bench serve`'s "Serving Benchmark Result" block and the failed requests it printed
 * (vllm/benchmarks/serve.py), SGLang bench_serving's block with its "Max ITL (ms)"
 * (python/sglang/bench_serving.py), GuideLLM 0.2's "Benchmarks Info/Stats" tables. Expected
 * values are parsed here from the producers' own text and JSON. Generated consoles follow the
 * same print statements (test/generators/bench-console.ts).
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { uploadResponseSchema } from "@/lib/api/schemas";
import { detectKind } from "@/lib/formats/detect";
import { vllmBenchResult } from "../generators/vllm-bench";
import { sglangLine } from "../generators/sglang-bench";
import { sglangConsole, vllmConsole } from "../generators/bench-console";
import { describeRealPublic, realPublicFile, realPublicParts } from "../helpers/real-public";
import { readRun } from "../helpers/read-api";
import { freshAppEachTest, uploadRequest } from "../helpers/test-app";

freshAppEachTest();

type Json = Record<string, unknown>;

/** The "label: value" lines of the last "Serving Benchmark Result" block, as printed. */
function printed(path: string): Map<string, string> {
  const text = fs.readFileSync(path, "utf8");
  const out = new Map<string, string>();
  for (const l of text.slice(text.lastIndexOf("Serving Benchmark Result")).split(/\r?\n/)) {
    const m = /^([A-Za-z0-9 ().\/-]+):\s+(\S+)\s*$/.exec(l.trim());
    if (m) out.set(m[1].trim(), m[2]);
  }
  return out;
}

const kindOf = (text: string) => detectKind(Buffer.from(text), true).kind;

const VLLM = "vllm-bench-serve-glm4.7-fp8-b200-with-console";
describeRealPublic(VLLM, () => {
  it("the folder: each console goes with the run whose numbers it printed; the failed run says why its requests failed", async () => {
    const res = await upload(uploadRequest(realPublicParts(VLLM)));
    expect(res.status).toBe(201);
    const body = uploadResponseSchema.parse(await res.json());
    expect(body.runs).toHaveLength(2);
    const runs = await Promise.all(body.runs!.map((r) => readRun(r.id)));
    for (const run of runs) {
      const json = run.files.find((f) => f.name.endsWith(".json"))!.name;
      const txt = json.replace(/\.json$/, ".txt");
      expect(run.files.map((f) => f.name).sort()).toEqual([json, txt]);
      expect(run.files.find((f) => f.name === txt)!.kind).toBe("bench-console");
      expect(run.info.consoleOutput).toBe(txt);
      const j = JSON.parse(fs.readFileSync(realPublicFile(VLLM, json), "utf8")) as Json;
      const c = printed(realPublicFile(VLLM, txt));
      expect(Number(c.get("Successful requests"))).toBe(j.completed);
      expect(run.warnings.join("\n")).not.toMatch(/console output/);
    }
    const failed = runs.find((r) => r.files.some((f) => f.name.includes("TP4")))!;
    const text = fs.readFileSync(realPublicFile(VLLM, "run_1_TP4_DP2_CTX2048_C100_P100_O128.txt"), "utf8");
    // vLLM printed 10 of its 100 failed requests; each ends in the same connection error.
    const errorLines = text.split("\n").filter((l) => /^Error \d+: /.test(l));
    expect(errorLines).toHaveLength(10);
    const reasons = text
      .split("\n")
      .filter((l) => l.startsWith("aiohttp.client_exceptions.ClientConnectorError: "));
    expect(reasons).toHaveLength(10);
    const reason = reasons[0].slice(0, reasons[0].indexOf(" [Multiple exceptions"));
    const fact = failed.info["vLLM bench serve console: failed requests printed"];
    expect(fact).toBe(
      `${reason} × 10 (the 10 it printed of ${printed(realPublicFile(VLLM, "run_1_TP4_DP2_CTX2048_C100_P100_O128.txt")).get("Failed requests")} failed: vLLM prints at most 10)`,
    );
    const ok = runs.find((r) => r !== failed)!;
    expect(Object.keys(ok.info).filter((k) => k.includes("console:"))).toEqual([]);
  });

  it("matched by content, not name: a renamed console joins its run, another run's console is not read", async () => {
    const tp8 = realPublicFile(VLLM, "run_1_TP8_DP1_CTX1024_C100_P100_O128.json");
    const tp4txt = realPublicFile(VLLM, "run_1_TP4_DP2_CTX2048_C100_P100_O128.txt");
    const tp8txt = realPublicFile(VLLM, "run_1_TP8_DP1_CTX1024_C100_P100_O128.txt");
    let res = await upload(
      uploadRequest([
        { name: "result.json", path: tp8 },
        { name: "stdout.log", path: tp8txt },
      ]),
    );
    expect(res.status).toBe(201);
    let run = await readRun(uploadResponseSchema.parse(await res.json()).id);
    expect(run.info.consoleOutput).toBe("stdout.log");
    res = await upload(
      uploadRequest([
        { name: "run_1_TP8_DP1_CTX1024_C100_P100_O128.json", path: tp8 },
        { name: "run_1_TP8_DP1_CTX1024_C100_P100_O128.txt", path: tp4txt },
      ]),
    );
    expect(res.status).toBe(201);
    run = await readRun(uploadResponseSchema.parse(await res.json()).id);
    expect(run.info.consoleOutput).toBeUndefined();
    expect(run.info["vLLM bench serve console: failed requests printed"]).toBeUndefined();
    expect(run.warnings.join("\n")).toMatch(
      /run_1_TP8_DP1_CTX1024_C100_P100_O128\.txt is vLLM bench serve's console output, but no result file of this run states its numbers/,
    );
    expect(run.requests!.count - run.requests!.errorCount).toBe(100);
  });

  it("a console alone is no run: refused, never a run of printed 0.00s", async () => {
    const res = await upload(
      uploadRequest([
        { name: "tp4.txt", path: realPublicFile(VLLM, "run_1_TP4_DP2_CTX2048_C100_P100_O128.txt") },
      ]),
    );
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.message).toMatch(/console output of a benchmark tool alone is not a run/);
  });
});

const SGLANG = "sglang-0.5.9-bench-serving-output-details";
describeRealPublic(SGLANG, () => {
  it("the folder: each run shows SGLang's printed Max ITL, which its JSONL lacks, in SGLang's words", async () => {
    const res = await upload(uploadRequest(realPublicParts(SGLANG)));
    expect(res.status).toBe(201);
    const body = uploadResponseSchema.parse(await res.json());
    expect(body.runs).toHaveLength(2);
    for (const ref of body.runs!) {
      const run = await readRun(ref.id);
      const jsonl = run.files.find((f) => f.name.endsWith(".jsonl"))!.name;
      const txt = jsonl.replace(/\.jsonl$/, ".txt");
      expect(run.info.consoleOutput).toBe(txt);
      const c = printed(realPublicFile(SGLANG, txt));
      const j = JSON.parse(
        fs.readFileSync(realPublicFile(SGLANG, jsonl), "utf8").replace(/:\s*Infinity\b/g, ': "Infinity"'),
      ) as Json;
      expect(j.max_itl_ms).toBeUndefined();
      expect(run.info["SGLang bench_serving console: Max ITL (ms)"]).toBe(c.get("Max ITL (ms)"));
      // SGLang's max of every gap it measured (its per-request `itls`), printed to 2 dp.
      const max = Math.max(...(j.itls as number[][]).flat()) * 1000;
      expect(max.toFixed(2)).toBe(c.get("Max ITL (ms)"));
      // Nothing the JSONL states twice.
      expect(Object.keys(run.info).filter((k) => k.includes("console:"))).toEqual([
        "SGLang bench_serving console: Max ITL (ms)",
      ]);
    }
  });
});

const GUIDELLM = "guidellm-0.2-stripped-fixture";
describeRealPublic(GUIDELLM, () => {
  it("GuideLLM's console tables are recognised and matched to the report's benchmark", async () => {
    const txt = realPublicFile(GUIDELLM, "benchmarks_stripped_output.txt");
    expect(kindOf(fs.readFileSync(txt, "utf8"))).toBe("bench-console");
    const res = await upload(uploadRequest(realPublicParts(GUIDELLM)));
    expect(res.status).toBe(201);
    const run = await readRun(uploadResponseSchema.parse(await res.json()).id);
    expect(run.info.consoleOutput).toBe("benchmarks_stripped_output.txt");
    // The numbers it was matched by are GuideLLM's own: 46 completed, in the report too.
    const row = fs
      .readFileSync(txt, "utf8")
      .split("\n")
      .find((l) => l.startsWith("synchronous|") && l.split("|").length === 19)!;
    expect(Number(row.split("|")[4])).toBe(run.requests!.count - run.requests!.errorCount);
    expect(run.warnings.join("\n")).not.toMatch(/console output/);
  });
});

describe("generated consoles (vllm/benchmarks/serve.py, python/sglang/bench_serving.py print formats)", () => {
  it("vLLM: a console of partly failed requests gives the printed reasons and counts; its figures match", async () => {
    const r = vllmBenchResult({
      requests: 30,
      errorEvery: 3,
      percentileMetrics: ["ttft", "tpot", "itl", "e2el"],
    });
    const errors = Array.from({ length: 10 }, (_, i) =>
      i % 2 === 0
        ? 'Traceback (most recent call last):\n  File "x.py", line 1, in f\naiohttp.client_exceptions.ServerDisconnectedError: Server disconnected'
        : "Bad Request",
    );
    const text = vllmConsole(r, errors);
    expect(kindOf(text)).toBe("bench-console");
    const res = await upload(
      uploadRequest([
        { name: "a/result.json", content: JSON.stringify(r) },
        { name: "a/console.txt", content: text },
      ]),
    );
    expect(res.status).toBe(201);
    const run = await readRun(uploadResponseSchema.parse(await res.json()).id);
    expect(run.info.consoleOutput).toBe("a/console.txt");
    expect(run.info["vLLM bench serve console: failed requests printed"]).toBe(
      `aiohttp.client_exceptions.ServerDisconnectedError: Server disconnected × 5; Bad Request × 5`,
    );
    expect(r.failed).toBe(10);
  });

  it("SGLang: Max ITL is shown as printed; a console of another run is not", async () => {
    const line = sglangLine({ requests: 24 });
    const text = sglangConsole(line, 123.456);
    expect(kindOf(text)).toBe("bench-console");
    const other = sglangConsole({ ...line, completed: 23 }, 99);
    const res = await upload(
      uploadRequest([
        { name: "r.jsonl", content: JSON.stringify(line) + "\n" },
        { name: "out.txt", content: text },
        { name: "other.txt", content: other },
      ]),
    );
    expect(res.status).toBe(201);
    const run = await readRun(uploadResponseSchema.parse(await res.json()).id);
    expect(run.info["SGLang bench_serving console: Max ITL (ms)"]).toBe("123.46");
    expect(run.info.consoleOutput).toBe("out.txt");
    expect(run.warnings.join("\n")).toMatch(
      /other\.txt is SGLang bench_serving's console output, but no result file/,
    );
  });
});
