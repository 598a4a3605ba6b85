import { describe, expect, it } from "vitest";
import { timeslicesPayloadSchema } from "@/lib/api/aiperf-charts";
import { analyze, fixtureFile } from "./aiperf-helpers";

describe("aiperf timeslice exports", () => {
  it("reads the documented JSON shape (classified by content)", async () => {
    const file = fixtureFile("timeslices/profile_export_aiperf_timeslices.json");
    expect(file.format).toBe("timeslices-json");
    const { result, reports, handle } = await analyze([file]);
    expect(reports[0].records).toBe(2);
    const p = timeslicesPayloadSchema.parse(result.charts!["aiperf-timeslices"]);
    expect(p.sliceDurationS).toBe(10);
    expect(p.slices[0]).toMatchObject({
      index: 0,
      ttftAvgMs: 45.2,
      ttftP99Ms: 76.8,
      requestThroughputPerS: null,
    });
    expect(p.slices[1]).toMatchObject({ index: 1, requestThroughputPerS: 3.1, ttftAvgMs: null });
    await handle.close();
  });

  it("reads the tidy CSV by header name, converting seconds to ms", async () => {
    const file = fixtureFile("timeslices/profile_export_aiperf_timeslices.csv");
    expect(file.format).toBe("timeslices-csv");
    const { result, handle } = await analyze([file]);
    const p = timeslicesPayloadSchema.parse(result.charts!["aiperf-timeslices"]);
    expect(p.slices).toHaveLength(2);
    expect(p.slices[0]).toMatchObject({ ttftAvgMs: 45.2, ttftP99Ms: 76.8, e2eAvgMs: 1500 });
    expect(p.slices[1]).toMatchObject({ requestThroughputPerS: 3.1, outputTokenThroughputPerS: 300 });
    await handle.close();
  });
});
