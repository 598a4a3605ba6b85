import { describe, expect, it } from "vitest";
import { formatChange, formatValue } from "@/components/compare/format-value";

describe("compare cells", () => {
  it("count GPUs with the right plural, in values and changes", () => {
    expect(formatValue(1, "GPU")).toBe("1 GPU");
    expect(formatValue(8, "GPU")).toBe("8 GPUs");
    expect(formatChange(-1, "GPU")).toBe("−1 GPU");
    expect(formatChange(4, "GPU")).toBe("+4 GPUs");
  });

  it("say — for a value not measured", () => {
    expect(formatValue(null, "GPU")).toBe("—");
  });
});
