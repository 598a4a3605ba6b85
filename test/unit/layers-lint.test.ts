import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");

/**
 * Lints one planted file with the project's own configuration. The file sits inside the tree
 * (the layer zones are paths of the tree) and is removed whatever happens.
 */
async function lintPlanted(relDir: string, source: string): Promise<ESLint.LintResult> {
  const file = path.join(root, relDir, `layers-probe-${randomUUID()}.ts`);
  fs.writeFileSync(file, source);
  try {
    const eslint = new ESLint({ cwd: root });
    const [result] = await eslint.lintFiles([file]);
    return result;
  } finally {
    fs.rmSync(file, { force: true });
  }
}

const layerErrors = (r: ESLint.LintResult) =>
  r.messages.filter((m) => m.ruleId === "import/no-restricted-paths");

describe("layer rules in the lint configuration", () => {
  it("fails a reader of producers' files that imports the database", async () => {
    const result = await lintPlanted(
      "lib/formats",
      'import type { Db } from "@/lib/store/db";\nexport type Probe = Db;\n',
    );
    const errors = layerErrors(result);
    expect(errors).toHaveLength(1);
    expect(errors[0].severity).toBe(2);
    expect(errors[0].message).toContain("lib/formats may import only lib/api");
  });

  it("fails the same escape written as a relative path", async () => {
    const result = await lintPlanted(
      "lib/formats",
      'import type { Db } from "../store/db";\nexport type Probe = Db;\n',
    );
    expect(layerErrors(result)).toHaveLength(1);
  });

  it("fails a component that imports the store and lib/api importing another layer", async () => {
    const component = await lintPlanted(
      "components",
      'import type { Db } from "@/lib/store/db";\nexport type Probe = Db;\n',
    );
    expect(layerErrors(component)).toHaveLength(1);
    const api = await lintPlanted(
      "lib/api",
      'import type { MetricSet } from "@/lib/formats/server-metrics/types";\nexport type Probe = MetricSet;\n',
    );
    expect(layerErrors(api)).toHaveLength(1);
  });

  it("passes imports that follow the layer order", async () => {
    const result = await lintPlanted(
      "lib/metrics",
      [
        'import type { Stats } from "@/lib/api/schemas";',
        'import type { MetricSet } from "@/lib/formats/server-metrics/types";',
        'import { computeStats } from "./stats";',
        "export type Probe = [Stats, MetricSet, typeof computeStats];",
        "",
      ].join("\n"),
    );
    expect(result.messages).toEqual([]);
  });
});
