import { describe, expect, it } from "vitest";
import {
  fittedTicks,
  niceBins,
  niceStep,
  niceTicks,
  ticksCovering,
  ticksWithin,
} from "@/lib/metrics/nice-scale";
import { fittedHorizontalAxis, readableAxis, ticksFit, tickText } from "@/components/charts/axis-ticks";
import { unitText } from "@/lib/metrics/bar-labels";

const isNiceStep = (step: number) => {
  const p = 10 ** Math.floor(Math.log10(step) + 1e-9);
  return [1, 2, 2.5, 5, 10].some((m) => Math.abs(step / p - m) < 1e-9);
};

describe("nice ticks", () => {
  it("step by 1, 2, 2.5 or 5 × 10ⁿ from 0 to just above the maximum", () => {
    expect(niceTicks(105)).toEqual([0, 25, 50, 75, 100, 125]);
    expect(niceTicks(570)).toEqual([0, 200, 400, 600]);
    expect(niceTicks(16_000)).toEqual([0, 5000, 10_000, 15_000, 20_000]);
    expect(niceTicks(0.3)).toEqual([0, 0.1, 0.2, 0.3]);
    expect(niceTicks(7.2)).toEqual([0, 2, 4, 6, 8]);
  });
  it("give a 0–1 axis when there is nothing above 0", () => {
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(NaN)).toEqual([0, 1]);
  });
  it("the review's bad axes come out round", () => {
    // Per-request breakdown, 0 … 2,600 ms: Recharts wrote 0 / 650 / 1,300 / 1,950 / 2,600.
    // 2,600 / 5 = 520 ms per interval at most → the next round step is 1,000.
    expect(ticksCovering(0, 2600)).toEqual([0, 1000, 2000, 3000]);
    // KV transfer bandwidth, 0.14 … 14.86 GB/s: 0.14 / 4.14 / 8.14 before.
    expect(ticksWithin(0.14, 14.86)).toEqual([2.5, 5, 7.5, 10, 12.5]);
    // A TTFT range of 70.4 … 230 ms: 70.4 / 110.4 / 150.4 before.
    expect(ticksWithin(70.4, 230)).toEqual([100, 150, 200]);
    expect(ticksWithin(0, 6.4)).toEqual([0, 2, 4, 6]);
  });
  it("integer axes never step below 1", () => {
    expect(niceStep(3, 5, 1)).toBe(1);
    expect(ticksCovering(0, 2, 5, 1)).toEqual([0, 1, 2]);
  });
  it("integer axes take whole steps: no 2.5 requests", () => {
    // Requests by turn, SGLang agentic folder: 0 … 12 requests gave 0 / 2.5 / 5 / 7.5 / 10 / 12.5.
    expect(ticksCovering(0, 12, 5, 1)).toEqual([0, 5, 10, 15]);
    for (let hi = 1; hi < 5000; hi = Math.ceil(hi * 1.3))
      for (const t of [...ticksCovering(0, hi, 5, 1), ...ticksWithin(0, hi, 6, 1)])
        expect(Number.isInteger(t)).toBe(true);
    // 25 is whole: a step of 2.5 × 10 is kept on a count axis.
    expect(niceStep(120, 5, 1)).toBe(25);
  });
  it("every step is round, over many ranges", () => {
    for (let span = 0.0013; span < 1e7; span *= 1.37) expect(isNiceStep(niceStep(span))).toBe(true);
  });
});

describe("nice histogram bins", () => {
  it("round edges, the minimum in the first bin and the maximum in the last", () => {
    // 70.4 … 230 ms in about 40 bins: step 5 ms from 70 (hand-computed: 160 / 40 = 4 → 5).
    const values = [70.4, 100, 150, 229.9, 230];
    const bins = niceBins(values, 70.4, 230, 40);
    expect(bins[0]).toEqual({ start: 70, end: 75, count: 1 });
    expect(bins[bins.length - 1]).toEqual({ start: 225, end: 230, count: 2 });
    expect(bins.length).toBe(32);
    expect(bins.reduce((n, b) => n + b.count, 0)).toBe(5);
  });
  it("a value on an edge goes in the bin that edge starts", () => {
    const bins = niceBins([0, 0.1, 0.2, 0.3, 0.4], 0, 0.4, 4);
    expect(bins.map((b) => [b.start, b.count])).toEqual([
      [0, 1],
      [0.1, 1],
      [0.2, 1],
      [0.3, 2],
    ]);
  });
  it("one value gets one bin of zero width", () => {
    expect(niceBins([5, 5], 5, 5, 40)).toEqual([{ start: 5, end: 5, count: 2 }]);
  });
  it("values near the largest doubles get even, finite bins that hold every value", () => {
    // A mutated record's latency of −1.6e308 ms: the round edge below it would be −2e308 = −∞.
    for (const values of [
      [-1.6000000002000003e308, 3700, 3783],
      [-1.6e308, 0, 1.6e308],
    ]) {
      const bins = niceBins(values, values[0], values[values.length - 1], 3);
      expect(bins).toHaveLength(3);
      for (const b of bins) expect(Number.isFinite(b.start) && Number.isFinite(b.end)).toBe(true);
      expect(bins[0].start).toBe(values[0]);
      expect(bins[2].end).toBe(values[values.length - 1]);
      expect(bins.reduce((n, b) => n + b.count, 0)).toBe(values.length);
    }
  });
});

describe("readable axes of the chart kit", () => {
  it("a value axis spans 0 to the round tick above the data", () => {
    const a = readableAxis({ title: "time", unit: "ms" }, [3, 2400], "value");
    expect(a.ticks).toEqual([0, 500, 1000, 1500, 2000, 2500]);
    expect(a.domain).toEqual([0, 2500]);
    expect(a.format!(1500)).toBe("1,500 ms");
  });
  it("a millisecond axis that reaches 10 s is written in seconds, title included", () => {
    const a = readableAxis({ title: "end to end", unit: "ms", format: String }, [0, 19_160], "value");
    expect(a.unit).toBe("s");
    expect(a.ticks).toEqual([0, 5000, 10_000, 15_000, 20_000]);
    expect(a.ticks!.map(a.format!)).toEqual(["0 s", "5 s", "10 s", "15 s", "20 s"]);
  });
  it("a position axis keeps its span and puts round ticks inside", () => {
    const a = readableAxis({ title: "time", unit: "s" }, [0, 33.7], "position");
    expect(a.domain).toEqual([0, 33.7]);
    expect(a.ticks).toEqual([0, 10, 20, 30]);
  });
  it("thousands separators on an axis without its own format", () => {
    const a = readableAxis({ title: "KV tokens" }, [0, 2_621_440], "value");
    expect(a.ticks!.map(a.format!)).toEqual(["0", "1,000,000", "2,000,000", "3,000,000"]);
  });
  it("leaves explicit ticks and log axes alone", () => {
    const log = { title: "t", log: true };
    expect(readableAxis(log, [1, 100], "value")).toBe(log);
  });
});

describe("a stack's scale", () => {
  it("ends on the first round tick at or past the longest stack's total, at any width", () => {
    // Compare's 991.5 ms stack at 390 px: the scale ran on to 1,150 ms past the 1,000 tick for
    // its 14 bands' minimum length (rounded up, 1,250). The bands' minimum now comes from the
    // stack's own longest bands (stackBandsPx): the scale is the data's.
    const spec = { title: "time at p50", unit: "ms" };
    expect(fittedHorizontalAxis(spec, [0, 991.5], "value", 4, 240).domain).toEqual([0, 1000]);
    expect(fittedHorizontalAxis(spec, [0, 991.5], "value", undefined, 1200).domain).toEqual([0, 1000]);
    expect(readableAxis(spec, [0, 991.5], "value", 4).domain).toEqual([0, 1000]);
  });
});

describe("a phone's two-axis chart: ticks as numbers alone, the unit in the title", () => {
  it("a rate's ticks drop their unit, thousands as K; the title keeps it", () => {
    const spec = { title: "Output token throughput", unit: "tok/s", format: unitText("tok/s") };
    const a = readableAxis(spec, [0, 23_400], "value", undefined, true);
    expect(a.unit).toBe("tok/s");
    expect(a.ticks!.map((v) => tickText(a, v))).toEqual(["0", "5 K", "10 K", "15 K", "20 K", "25 K"]);
    const small = readableAxis(
      { title: "Request throughput", unit: "req/s", format: unitText("req/s") },
      [0, 3.4],
      "value",
      undefined,
      true,
    );
    expect(small.ticks!.map((v) => tickText(small, v))).toEqual(["0", "1", "2", "3", "4"]);
  });
  it("milliseconds without their unit, seconds from 10 s (the title says which)", () => {
    const ms = readableAxis({ title: "TTFT", unit: "ms" }, [0, 2400], "value", undefined, true);
    expect(ms.ticks!.map((v) => tickText(ms, v))).toEqual(["0", "500", "1,000", "1,500", "2,000", "2,500"]);
    const s = readableAxis({ title: "E2E", unit: "ms" }, [0, 19_160], "value", undefined, true);
    expect(s.unit).toBe("s");
    expect(s.ticks!.map((v) => tickText(s, v))).toEqual(["0", "5", "10", "15", "20"]);
  });
  it("a percent axis's ticks drop the sign too", () => {
    const p = readableAxis(
      { title: "hit rate", unit: "%", tickUnit: "%" },
      [0, 87],
      "value",
      undefined,
      true,
    );
    expect(p.ticks!.map((v) => tickText(p, v))).toEqual(["0", "20", "40", "60", "80", "100"]);
  });
});

describe("a phone's single-axis chart: ticks without the unit its title names", () => {
  it("a latency axis writes 0 / 1,000 / 2,000, fitted to a phone's plot, and keeps its unit at 1440 px", () => {
    const spec = { title: "Time to first token", unit: "ms", format: unitText("ms") };
    const phone = fittedHorizontalAxis(spec, [0, 2_380], "position", 4, 250, "unit");
    expect(phone.unit).toBe("ms");
    expect(phone.ticks!.map((v) => tickText(phone, v))).toEqual(["0", "1,000", "2,000"]);
    // Before: the unit on each tick.
    const before = fittedHorizontalAxis(spec, [0, 2_380], "position", 4, 250);
    expect(before.ticks!.map((v) => tickText(before, v))).toEqual(["0 ms", "1,000 ms", "2,000 ms"]);
    const wide = fittedHorizontalAxis(spec, [0, 2_380], "position", undefined, 440);
    for (const v of wide.ticks!) expect(tickText(wide, v)).toMatch(/ ms$/);
  });
  it("seconds from 10 s, a percent axis, a rate and a bar axis's compact counts lose their unit alone", () => {
    const s = readableAxis({ title: "E2E", unit: "ms" }, [0, 19_160], "value", undefined, "unit");
    expect(s.unit).toBe("s");
    expect(s.ticks!.map((v) => tickText(s, v))).toEqual(["0", "5", "10", "15", "20"]);
    const p = readableAxis(
      { title: "hit rate", unit: "%", tickUnit: "%", domain: [0, 100] },
      [0, 87],
      "value",
      4,
      "unit",
    );
    expect(p.ticks!.map((v) => tickText(p, v))).toEqual(["0", "25", "50", "75", "100"]);
    const r = readableAxis(
      { title: "bandwidth", unit: "GB/s", format: unitText("GB/s") },
      [0, 9.5],
      "value",
      undefined,
      "unit",
    );
    expect(r.ticks!.map((v) => tickText(r, v))).toEqual(["0", "2", "4", "6", "8", "10"]);
  });
  it("leaves an axis without a title (nothing would name the unit) and a tick in another unit as written", () => {
    const untitled = readableAxis({ unit: "ms" }, [0, 900], "value", undefined, "unit");
    expect(untitled.ticks!.map((v) => tickText(untitled, v))).toContain("200 ms");
    const other = readableAxis(
      { title: "time", unit: "ms", ticks: [0, 1500], format: (v) => `${v / 1000} s` },
      [0, 1500],
      "value",
      undefined,
      "unit",
    );
    expect(other.ticks!.map((v) => tickText(other, v))).toEqual(["0 s", "1.5 s"]);
  });
});

describe("tick text", () => {
  it("a 2.5 step keeps its decimal (never 0 / 3 / 5 / 8)", () => {
    const a = readableAxis({ title: "requests" }, [0, 12], "value");
    expect(a.ticks!.map(a.format!)).toEqual(["0", "2.5", "5", "7.5", "10", "12.5"]);
  });
});

describe("fittedTicks", () => {
  it("fits a sweep axis to its points instead of starting at 0", () => {
    // Interactivity of the qwen c1/c2/c4 sweep: 54–55 tok/s/user, once a sliver of a 0–60 axis.
    const t = fittedTicks(54.05, 55.07);
    expect(t[0]).toBeGreaterThan(50);
    expect(t[0]).toBeLessThanOrEqual(54.05);
    expect(t[t.length - 1]).toBeGreaterThanOrEqual(55.07);
    expect(t[t.length - 1]).toBeLessThan(57);
  });

  it("keeps 0 as the floor for data that starts near it, and pads one value", () => {
    expect(fittedTicks(2, 1000)[0]).toBe(0);
    const one = fittedTicks(3720, 3720);
    expect(one[0]).toBeLessThan(3720);
    expect(one[one.length - 1]).toBeGreaterThan(3720);
  });
});

describe("x ticks that fit the plot's width", () => {
  const evenly = (ticks: number[]) =>
    ticks.slice(1).every((v, i) => Math.abs(v - ticks[i] - (ticks[1] - ticks[0])) < 1e-9);

  it("a 12.5 GB/s axis in a half-width card keeps every tick it draws, evenly spaced (review of 3 Dec, item 16)", () => {
    const spec = { title: "bandwidth", unit: "GB/s", tickUnit: " GB/s" };
    // The library was left six ticks it had no room for and dropped 10: 0 / 2.5 / 5 / 7.5 / 12.5.
    expect(readableAxis(spec, [0, 12.1], "value").ticks).toEqual([0, 2.5, 5, 7.5, 10, 12.5]);
    const narrow = fittedHorizontalAxis(spec, [0, 12.1], "value", undefined, 300);
    expect(narrow.everyTick).toBe(true);
    expect(evenly(narrow.ticks!)).toBe(true);
    const widest = Math.max(...narrow.ticks!.map((v) => tickText(narrow, v).length)) * 7;
    expect(300 / (narrow.ticks!.length - 1)).toBeGreaterThanOrEqual(widest + 12);
    // With room, all six.
    expect(fittedHorizontalAxis(spec, [0, 12.1], "value", undefined, 900).ticks).toHaveLength(6);
  });

  it("a phone's latency range keeps round, even ticks; before layout the axis is left as it was", () => {
    const spec = { title: "latency", unit: "ms" };
    const a = fittedHorizontalAxis(spec, [38, 104], "position", 4, 220);
    expect(a.everyTick).toBe(true);
    expect(evenly(a.ticks!)).toBe(true);
    const before = fittedHorizontalAxis(spec, [38, 104], "position", 4, null);
    expect(before.ticks).toEqual(readableAxis(spec, [38, 104], "position", 4).ticks);
    expect(before.everyTick).toBeUndefined();
  });
});

describe("ticks as drawn on a phone (issue 29)", () => {
  it("the end ticks are drawn inwards: a 65 px plot's 0 ms and 1,000 ms touched; what is written keeps clear", () => {
    const spec = { title: "time after arrival", unit: "ms", domain: [0, "auto"] as [number, "auto"] };
    // Centred ticks 65 px apart looked wide enough; drawn inwards, "0 ms" and "1,000 ms" overlap.
    expect(ticksFit(readableAxis(spec, [0, 980], "value", 4), [0, 1000], [0, 1000], 65)).toBe(false);
    const a = fittedHorizontalAxis(spec, [0, 980], "value", 4, 65);
    expect(a.everyTick).toBe(true);
    expect(ticksFit(a, a.ticks!, [0, 1000], 65)).toBe(true);
    expect(a.ticks).toEqual([1000]);
    // With the plot's room, round ticks from 0.
    const wide = fittedHorizontalAxis(spec, [0, 980], "value", 4, 200);
    expect(wide.ticks![0]).toBe(0);
    expect(wide.ticks!.length).toBeGreaterThanOrEqual(2);
    expect(ticksFit(wide, wide.ticks!, [0, wide.ticks!.at(-1)!], 200)).toBe(true);
  });

  it("a log axis gets its powers of ten, thinned until they fit", () => {
    const spec = {
      title: "KV capacity",
      unit: "tokens",
      log: true,
      domain: [1000, "auto"] as [number, "auto"],
      format: (v: number) => `${v.toLocaleString("en-US")} tokens`,
    };
    const wide = fittedHorizontalAxis(spec, [1600, 1.28e9], "value", undefined, 1000);
    expect(wide.domain).toEqual([1000, 1.28e9]);
    expect(wide.ticks![0]).toBe(1000);
    expect(ticksFit(wide, wide.ticks!, [1000, 1.28e9], 1000)).toBe(true);
    const narrow = fittedHorizontalAxis(spec, [1600, 1.28e9], "value", 4, 200);
    expect(narrow.ticks!.length).toBeLessThan(wide.ticks!.length);
    expect(ticksFit(narrow, narrow.ticks!, [1000, 1.28e9], 200)).toBe(true);
  });
});
