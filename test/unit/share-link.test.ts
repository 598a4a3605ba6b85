import { describe, expect, it } from "vitest";
import { resolveShareLink } from "@/app/inference/share-link";

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
