import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EXAMPLE_RUNS } from "@/lib/examples/examples";
import { seedExamples } from "@/lib/examples/seed-examples";
import { useTestApp } from "../helpers/test-app";

const EXAMPLES = path.resolve(__dirname, "../../lib/examples/files");

describe("example runs", () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => cleanup?.());

  it("every listed file ships in the examples folder, and every shipped file is listed", () => {
    const listed = EXAMPLE_RUNS.flatMap((e) => e.files.map((f) => path.join(e.dir, f))).sort();
    const shipped = fs.readdirSync(EXAMPLES, { recursive: true, encoding: "utf8" });
    expect(shipped.filter((f) => fs.statSync(path.join(EXAMPLES, f)).isFile()).sort()).toEqual(listed);
  });

  it("a fresh store seeds every example once, each ready, from the working directory", async () => {
    const t = await useTestApp({ RUNLENS_EXAMPLES: "on" });
    cleanup = t.cleanup;
    // The default folder is found from the checkout root, as the server runs there.
    expect(process.cwd()).toBe(path.resolve(EXAMPLES, "../../.."));
    expect(await seedExamples(t.app)).toBe(EXAMPLE_RUNS.length);
    const runs = await t.app.store.db.selectFrom("runs").select(["name", "status"]).execute();
    expect(runs.map((r) => r.name).sort()).toEqual(EXAMPLE_RUNS.map((e) => e.name).sort());
    expect(runs.every((r) => r.status === "ready")).toBe(true);
    const files = await t.app.store.db.selectFrom("files").select(["kind"]).execute();
    expect(files).toHaveLength(EXAMPLE_RUNS.reduce((n, e) => n + e.files.length, 0));
    expect(files.filter((f) => f.kind === "unknown")).toEqual([]);
    expect(await seedExamples(t.app)).toBe(0);
  });
});
