import { describe, expect, it } from "vitest";
import { shortId } from "@/lib/metrics/agent-session-rows";

describe("a session's short id", () => {
  it("keeps short ids, cuts long ones to 8 characters, and each half of correlation/conversation", () => {
    expect(shortId("trace-A")).toBe("trace-A");
    expect(shortId("1c0e496e-9238-4aaa-983e-bf7ac3a87ece")).toBe("1c0e496e…");
    const reused = "x".repeat(36);
    // Two conversations of one reused correlation id read apart.
    expect(shortId(`${reused}/trace-A`)).toBe("xxxxxxxx…/trace-A");
    expect(shortId(`${reused}/trace-B`)).toBe("xxxxxxxx…/trace-B");
    expect(shortId("a/b")).toBe("a/b");
    expect(shortId(`${reused}/`)).toBe("xxxxxxxx…");
  });
});
