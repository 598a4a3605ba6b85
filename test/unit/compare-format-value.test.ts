import { describe, expect, it } from "vitest";
import { formatBare, formatChange, formatPercent, formatValue } from "@/components/compare/format-value";
import { figureDigits } from "@/lib/format-number";
import { unitText } from "@/lib/metrics/bar-labels";

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

  it("write a throughput as every page writes the figure: tok/s at 2 decimals, req/s at 3", () => {
    // The Overview tile's 194.51 tok/s and 0.973 requests/s; Compare wrote 195 and 0.97.
    expect(figureDigits("tok/s")).toBe(2);
    expect(figureDigits("tok/s/GPU")).toBe(2);
    expect(figureDigits("tok/s/user")).toBe(2);
    expect(figureDigits("req/s")).toBe(3);
    expect(figureDigits("req/s/GPU")).toBe(3);
    expect(figureDigits("ms")).toBeNull();
    expect(formatValue(194.5123, "tok/s")).toBe("194.51 tok/s");
    expect(formatValue(0.97312, "req/s")).toBe("0.973 req/s");
    expect(formatBare(0.97312, "req/s")).toBe("0.973");
    expect(formatBare(50.08213, "tok/s/GPU")).toBe("50.08");
    expect(formatChange(-0.0251, "req/s")).toBe("−0.025 req/s");
    // A bar's label in the report and the figure descriptions.
    expect(unitText("tok/s")(194.5123)).toBe("194.51 tok/s");
    expect(unitText("req/s")(0.97312)).toBe("0.973 req/s");
  });
});
