import { describe, expect, it } from "vitest";
import { figureProps } from "@/components/charts/figure-props";
import { definitionText } from "@/lib/api/figure";
import { aiperfErrorsFigure } from "@/lib/metrics/figures/errors";
import { reportFigure } from "@/lib/runs/report/figure-kit";
import { renderPlot } from "@/lib/runs/report/svg-plot";

const payload = {
  total: 2,
  groups: [{ type: "TimeoutError", code: 504, count: 2, examples: [], firstAtMs: 0 }],
  summary: [],
};

describe("errors by type", () => {
  it("2 failed of 200 requests: the value axis runs to the 200, each bar says its share", () => {
    const f = aiperfErrorsFigure(payload, 200);
    expect(f.description).toBe("2 of 200 profiling requests failed (1%), warm-up excluded");
    expect(definitionText(f.definition)).toContain("the axis runs to the run's 200 profiling requests");
    expect(f.categoryNotes).toEqual(["1% of requests"]);
    // The page's value axis, and the report's last tick, are the run's 200 requests, not 2.
    expect(figureProps(f).x.domain).toEqual([0, 200]);
    const svg = renderPlot(reportFigure(f).plot, f.title);
    expect(svg).toContain(">200</text>");
    expect(svg).toContain("TimeoutError (504) · 1% of requests");
  });

  it("without the run's request count the axis counts the failures and says so", () => {
    const f = aiperfErrorsFigure(payload, null);
    expect(f.y.domain).toBeUndefined();
    expect(f.categoryNotes).toBeUndefined();
    expect(f.description).toBe(
      "2 failed profiling requests, warm-up excluded; the run's request count is not known",
    );
  });
});
