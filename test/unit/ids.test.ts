import { describe, expect, it } from "vitest";
import { isValidId, newFileId, newRunId } from "@/lib/store/ids";

describe("run and file ids", () => {
  it("never begin with a dash, so a command line reads them as an id and not an option", () => {
    // One base64url character in 64 is "-": 20,000 ids hold about 312 such first characters.
    for (let i = 0; i < 10_000; i++) {
      const run = newRunId();
      const file = newFileId();
      expect(run[0]).not.toBe("-");
      expect(file[0]).not.toBe("-");
      expect(run).toHaveLength(22);
      expect(file).toHaveLength(16);
      expect(isValidId(run) && isValidId(file)).toBe(true);
    }
  });
});
