import { describe, expect, it } from "vitest";
import { formatChange, formatPercent, formatValue } from "@/components/compare/format-value";

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

  it("write a relative change in the precision of its neighbours: one decimal, one digit under 0.1%", () => {
    // 3,721.5 ms against 3,720 ms: "+0.0407%" beside "−33%" and "+0.3%" claimed a precision nobody has.
    expect(formatPercent(3721.5 / 3720 - 1, true)).toBe("+0.04%");
    expect(formatPercent(-0.0003)).toBe("−0.03%");
    expect(formatPercent(0.003)).toBe("+0.3%");
    expect(formatPercent(-0.33, true)).toBe("−33%");
    expect(formatPercent(-0.0163)).toBe("−1.6%");
    expect(formatPercent(0)).toBe("±0%");
    expect(formatPercent(null)).toBe("");
  });
});
