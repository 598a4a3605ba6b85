import { createLoader } from "nuqs/server";
import { describe, expect, it } from "vitest";
import { resolveShareLink } from "@/app/inference/share-link";
import { compareHref } from "@/components/compare/search-params";
import { runHref, runSearchParams } from "@/components/run/search-params";

describe("InferenceX-style share links", () => {
  it("one id opens the run, whatever the case of the parameter", () => {
    expect(resolveShareLink({ unofficialRun: "abcDEF_123" })).toBe("/runs/abcDEF_123");
    expect(resolveShareLink({ UNOFFICIALRUN: "abcDEF_123" })).toBe("/runs/abcDEF_123");
    expect(resolveShareLink({ unofficialruns: "abcDEF_123" })).toBe("/runs/abcDEF_123");
  });
  it("a comma list opens the comparison, duplicates and junk dropped", () => {
    expect(resolveShareLink({ unofficialRuns: "a1,b2, a1 ,<x>" })).toBe("/compare?runs=a1,b2");
    expect(resolveShareLink({ unofficialRun: ["a1", "b2"] })).toBe("/compare?runs=a1,b2");
  });
  it("nothing usable goes home", () => {
    expect(resolveShareLink({})).toBe("/");
    expect(resolveShareLink({ run: "a1" })).toBe("/");
  });
});

describe("links written by the pages' own search-params maps", () => {
  it("state at its default stays out of the URL", () => {
    expect(runHref("abc", { view: "overview", metric: "ttftMs" })).toBe("/runs/abc");
    expect(compareHref({ runs: ["a1", "b2"], stat: "p50" })).toBe("/compare?runs=a1,b2");
  });
  it("state off its default reads back as the page parses it", () => {
    const href = runHref("abc", { view: "latency", metric: "e2eMs" });
    expect(href).toBe("/runs/abc?view=latency&metric=e2eMs");
    const parsed = createLoader(runSearchParams)(new URLSearchParams(href.split("?")[1]));
    expect(parsed).toMatchObject({ view: "latency", metric: "e2eMs", stat: "p50", endpoint: "all" });
  });
});
