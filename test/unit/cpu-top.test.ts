/**
 * The bench's profile summary (test/bench/cpu-top.mjs) counts self time as V8's DevTools does: a
 * sample owns the interval until the next sample, and only samples inside the upload's
 * intervals count. Hand-made profile, hand-computed answers.
 */
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the bench, without types
import { selfTimes, threadName } from "../bench/cpu-top.mjs";

const frame = (functionName: string, lineNumber = 0) => ({
  functionName,
  url: functionName === "(root)" ? "" : "node:internal/example",
  lineNumber,
  columnNumber: 0,
});

// root → a → b; samples a, b, b, a, 10 / 20 / 30 µs apart, from t = 1,000 µs.
const profile = {
  nodes: [
    { id: 1, callFrame: frame("(root)"), children: [2] },
    { id: 2, callFrame: frame("a", 4), children: [3] },
    { id: 3, callFrame: frame("b", 9) },
  ],
  startTime: 1000,
  samples: [2, 3, 3, 2],
  timeDeltas: [0, 10, 20, 30],
};

describe("cpu-top self times", () => {
  it("gives each sample the interval to the next one", () => {
    const { sampledUs, functions } = selfTimes(profile);
    expect(sampledUs).toBe(60);
    expect(functions.map((f: { name: string; us: number }) => [f.name, f.us])).toEqual([
      ["b", 50],
      ["a", 10],
    ]);
    expect(functions[0].where).toBe("node:internal/example:10");
  });

  it("counts only the samples inside the windows", () => {
    // Samples stamped 1,000 / 1,010 / 1,030 / 1,060: the window keeps the two b samples.
    const { sampledUs, functions } = selfTimes(profile, [{ startUs: 1005, endUs: 1035 }]);
    expect(sampledUs).toBe(50);
    expect(functions.map((f: { name: string }) => f.name)).toEqual(["b"]);
  });

  it("names the main thread by the file name node gives it", () => {
    expect(threadName("CPU.20261202.011901.19206.0.001.cpuprofile", profile)).toBe("main thread");
    expect(threadName("CPU.20261202.011901.19206.3.004.cpuprofile", profile)).toBe("thread 3");
  });
});
