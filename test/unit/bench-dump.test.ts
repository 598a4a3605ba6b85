/**
 * The before/after dump (docs/performance.md, "Before/after dump"): dump files are canonical
 * (sorted keys, upload ids and instants taken out), and dump-diff says per file whether it is
 * identical, which values changed and which keys only one side has, on two small hand-made dumps.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the bench, without types
import { canonicalText, volatileIds } from "../bench/dump-canonical.mjs";
// @ts-expect-error: a plain ES module of the bench, without types
import { diffDumps, report } from "../bench/dump-diff.mjs";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A dump directory holding these files (relative path → JSON value or raw text). */
function dump(files: Record<string, unknown>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-dump-test-"));
  dirs.push(dir);
  for (const [rel, v] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), typeof v === "string" ? v : canonicalText(v));
  }
  return dir;
}

describe("canonical dump text", () => {
  it("sorts keys at every depth and writes the same text for the same values", () => {
    const a = canonicalText({ b: 1, a: { d: [2, { y: 1, x: 0 }], c: null } });
    const b = canonicalText({ a: { c: null, d: [2, { x: 0, y: 1 }] }, b: 1 });
    expect(a).toBe(b);
    expect(Object.keys(JSON.parse(a))).toEqual(["a", "b"]);
    expect(Object.keys(JSON.parse(a).a.d[1])).toEqual(["x", "y"]);
  });

  it("names the run and file ids, drops upload instants and chart URL versions, keeps the numbers", () => {
    const summary = {
      id: "RUN_abcdefgh",
      createdAt: "2026-12-02T01:00:00.000Z",
      summaryReadyAt: "2026-12-02T01:00:01.000Z",
      drilldownReadyAt: null,
      ingestedAt: 1_764_000_000_000,
      aggregatorVersion: 7,
      files: [{ id: "FILE_12345678", name: "profile_export.jsonl", records: 20_000 }],
      requests: { durationS: 123.5, ttftMs: { p50: 41.25 } },
    };
    const upload = {
      id: "RUN_abcdefgh",
      url: "/runs/RUN_abcdefgh",
      files: [{ id: "FILE_12345678", name: "profile_export.jsonl" }],
    };
    const ids = volatileIds(summary, upload);
    expect(JSON.parse(canonicalText(summary, ids))).toEqual({
      id: "<run>",
      aggregatorVersion: 7,
      files: [{ id: "<file:profile_export.jsonl>", name: "profile_export.jsonl", records: 20_000 }],
      requests: { durationS: 123.5, ttftMs: { p50: 41.25 } },
    });
    expect(JSON.parse(canonicalText(upload, ids)).url).toBe("/runs/<run>");
    expect(
      JSON.parse(canonicalText({ href: "/api/runs/RUN_abcdefgh/charts/x?v=7.1764&y=1" }, ids)).href,
    ).toBe("/api/runs/<run>/charts/x?v=<version>&y=1");
  });
});

describe("dump-diff", () => {
  const before = {
    "aiperf/summary.json": { requests: { count: 20_000, ttftMs: { p50: 41.25, p99: 90 } }, warnings: [] },
    "aiperf/charts/aiperf-ttft.json": {
      series: [
        { x: 1, y: 2 },
        { x: 2, y: 4 },
        { x: 3, y: 6 },
      ],
    },
    "trtllm/summary.json": { requests: { count: 2_000 } },
    "gone/summary.json": { a: 1 },
  };

  it("says identical for every file of two equal dumps, and exits clean", () => {
    const results = diffDumps(dump(before), dump(before));
    expect(results.map((r: { state: string }) => r.state)).toEqual([
      "identical",
      "identical",
      "identical",
      "identical",
    ]);
    expect(report(results).at(-1)).toBe("4 files: 4 identical, 0 changed, 0 only before, 0 only after");
  });

  it("lists the values that changed with path, before and after, and the keys one side has", () => {
    const after = {
      ...before,
      "aiperf/summary.json": {
        requests: { count: 20_000, ttftMs: { p50: 41.5, p75: 60, p99: 90 } },
        warnings: [],
        throughput: null,
      },
      "aiperf/charts/aiperf-ttft.json": {
        series: [
          { x: 1, y: 2 },
          { x: 2, y: 5 },
          { x: 3, y: 9 },
          { x: 4, y: 8 },
        ],
      },
      "gone/summary.json": undefined,
      "new/summary.json": { b: 2 },
    };
    delete after["gone/summary.json"];
    const results = diffDumps(dump(before), dump(after as Record<string, unknown>));
    const byFile = Object.fromEntries(results.map((r: { file: string }) => [r.file, r]));
    expect(byFile["trtllm/summary.json"].state).toBe("identical");
    expect(byFile["gone/summary.json"].state).toBe("only-before");
    expect(byFile["new/summary.json"].state).toBe("only-after");
    expect(byFile["aiperf/summary.json"].diff).toEqual({
      changed: [{ path: "$.requests.ttftMs.p50", before: 41.25, after: 41.5 }],
      onlyBefore: [],
      onlyAfter: [
        { path: "$.requests.ttftMs.p75", value: 60 },
        { path: "$.throughput", value: null },
      ],
    });
    expect(byFile["aiperf/charts/aiperf-ttft.json"].diff).toEqual({
      changed: [
        { path: "$.series[1].y", before: 4, after: 5 },
        { path: "$.series[2].y", before: 6, after: 9 },
      ],
      onlyBefore: [],
      onlyAfter: [{ path: "$.series[3]", value: { x: 4, y: 8 } }],
    });
    const text = report(results, { examples: 1 });
    // A series' points are one group: count, the first example, the largest change (3, 6 → 9 is 50 %).
    expect(text).toContain("  changed $.series[*].y ×2 (max |Δ| 3, max rel 0.5)");
    expect(text).toContain("    $.series[1].y: 4 → 5");
    expect(text).not.toContain("    $.series[2].y: 6 → 9");
    expect(text).toContain("  only after $.requests.ttftMs.p75 ×1");
    expect(text.at(-1)).toBe("5 files: 1 identical, 2 changed, 1 only before, 1 only after");
  });

  it("tells a change of type from a change of value, and text that differs without values differing", () => {
    const results = diffDumps(
      dump({ "a.json": { v: [1], w: 0 }, "b.json": '{"x":1,"y":2}\n' }),
      dump({ "a.json": { v: { 0: 1 }, w: null }, "b.json": '{"y":2,"x":1}\n' }),
    );
    expect(results[0].diff.changed).toEqual([
      { path: "$.v", before: [1], after: { 0: 1 } },
      { path: "$.w", before: 0, after: null },
    ]);
    expect(report(results)).toContain("b.json: same values, different text");
  });
});
