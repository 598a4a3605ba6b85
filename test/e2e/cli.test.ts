import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { traceFileSchema } from "../helpers/chrome-trace-schema";
import { startApp, type RunningApp } from "./harness";
import { cli } from "../helpers/cli";

const ROOT = path.resolve(__dirname, "../..");
const FOLDER = path.join(ROOT, "test/fixtures/compare/run-a");
const TOKEN = "cli-test-token";

let app: RunningApp;
beforeAll(async () => {
  app = await startApp({ env: { RUNLENS_API_TOKEN: TOKEN } });
});
afterAll(async () => app?.stop());

/** `runlens upload <what> --server <app> [...args] --token <TOKEN>`. */
const uploadWithToken = (what: string, ...args: string[]) =>
  cli(["upload", what, "--server", app.url, ...args, "--token", TOKEN]);

describe("runlens upload", () => {
  it("uploads a parent folder of run folders as one sweep and prints the sweep's link", async () => {
    const sweepFolder = path.join(ROOT, "lib/examples/files/aiperf-qwen-sweep");
    const res = await uploadWithToken(sweepFolder, "--name", "qwen ci");
    expect(res.code).toBe(0);
    const url = res.stdout.trim();
    expect(url).toMatch(new RegExp(`^${app.url}/sweeps/[A-Za-z0-9_-]{22}$`));
    expect(res.stderr.match(/^run qwen-c\d/gm)).toHaveLength(3);
    const sweep = await (await fetch(`${app.url}/api/sweeps/${url.split("/").pop()}`)).json();
    expect(sweep.name).toBe("qwen ci");
    expect(sweep.runs.map((r: { concurrency: number }) => r.concurrency)).toEqual([1, 2, 4]);
  });

  it("uploads a folder, prints the run URL on stdout and the kinds on stderr", async () => {
    const res = await uploadWithToken(FOLDER, "--name", "x", "--labels", "a,b");
    expect(res.code).toBe(0);
    const url = res.stdout.trim();
    expect(url).toMatch(new RegExp(`^${app.url}/runs/[A-Za-z0-9_-]{22}$`));
    expect(res.stderr).toMatch(/engine-config\s+extra-llm-api-config\.yml/);
    expect(res.stderr).toMatch(/trtllm-perf-metrics\s+perf_metrics-0\.jsonl \(3 records\)/);

    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("x");
    const id = url.split("/").pop();
    const summary = await (await fetch(`${app.url}/api/runs/${id}`)).json();
    expect(summary.name).toBe("x");
    expect(summary.labels).toEqual(["a", "b"]);
    expect(summary.collectors.returnPerfMetrics).toBe(true);
  });

  it("takes the server and token from RUNLENS_SERVER and RUNLENS_API_TOKEN", async () => {
    const res = await cli(["upload", path.join(FOLDER, "perf_metrics-0.jsonl")], {
      RUNLENS_SERVER: app.url,
      RUNLENS_API_TOKEN: TOKEN,
    });
    expect(res.code).toBe(0);
    expect(res.stdout.trim()).toMatch(/\/runs\/[A-Za-z0-9_-]{22}$/);
  });

  it("fails with a non-zero exit and a one-line reason", async () => {
    const noToken = await cli(["upload", FOLDER, "--server", app.url]);
    expect(noToken.code).not.toBe(0);
    expect(noToken.stdout).toBe("");
    expect(noToken.stderr.trim().split("\n")).toHaveLength(1);
    expect(noToken.stderr).toMatch(/^runlens: upload failed \(401 unauthorized\)/);

    const missing = await uploadWithToken("/nonexistent/dir");
    expect(missing.code).not.toBe(0);
    expect(missing.stderr.trim()).toBe("runlens: no such file or folder: /nonexistent/dir");

    const noServer = await cli(["upload", FOLDER]);
    expect(noServer.stderr).toMatch(/no server/);
    expect(noServer.code).not.toBe(0);
  });
});

describe("runlens export", () => {
  async function uploaded(): Promise<string> {
    const res = await uploadWithToken(FOLDER);
    expect(res.code).toBe(0);
    return res.stdout.trim();
  }

  it("saves a run's trace and report, from its URL or its id and --server", async () => {
    const runUrl = await uploaded();
    const id = runUrl.split("/").pop()!;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-cli-export-"));
    const traceFile = path.join(dir, "run.trace.json");
    const trace = await cli(["export", runUrl, "--trace", "-o", traceFile]);
    expect(trace.code).toBe(0);
    expect(trace.stdout.trim()).toBe(traceFile);
    expect(trace.stderr).toMatch(new RegExp(`^trace of run ${id}: [\\d,]+ bytes\\n$`));
    const parsed = traceFileSchema.parse(JSON.parse(fs.readFileSync(traceFile, "utf8")));
    expect(parsed.otherData.runId).toBe(id);
    expect(parsed.traceEvents.some((e) => e.ph === "X" && e.cat === "ttft")).toBe(true);

    const reportFile = path.join(dir, "run.html");
    const report = await cli(["export", id, "--report", "-o", reportFile], { RUNLENS_SERVER: app.url });
    expect(report.code, report.stderr).toBe(0);
    const html = fs.readFileSync(reportFile, "utf8");
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain("<h2>Breakdown</h2>");
    expect(fs.readdirSync(dir).sort()).toEqual(["run.html", "run.trace.json"]);
  });

  it("fails with one line and leaves no file for an unknown run", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-cli-export-"));
    const out = path.join(dir, "x.html");
    const res = await cli(["export", "AAAAAAAAAAAAAAAAAAAAAA", "--report", "-o", out, "--server", app.url]);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toBe("runlens: export failed (404 not_found): run not found\n");
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
