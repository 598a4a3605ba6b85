/** The stall probe the read and lock tests bound with (../helpers/loop-stalls) sees a real hold. */
import { describe, expect, it } from "vitest";
import { loopStalls } from "../helpers/loop-stalls";

const spin = (ms: number) => {
  const cpu = process.cpuUsage();
  for (;;) {
    const used = process.cpuUsage(cpu);
    if ((used.user + used.system) / 1000 >= ms) return;
  }
};
const turn = () => new Promise((r) => setTimeout(r, 10));

describe("loopStalls", () => {
  it("counts a synchronous slice of 300 ms of CPU as held", async () => {
    const stalls = loopStalls();
    await turn();
    spin(300);
    await turn();
    expect(stalls.stop()).toBeGreaterThanOrEqual(250);
  });

  it("counts no hold for work that yields every few ms", async () => {
    const stalls = loopStalls();
    for (let i = 0; i < 30; i++) {
      spin(2);
      await turn();
    }
    expect(stalls.stop()).toBeLessThan(250);
  });
});
