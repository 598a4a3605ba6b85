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

/** A file that imports one type and uses it, so only the import can be wrong. */
const probe = (specifier: string, type: string) =>
  `import type { ${type} } from "${specifier}";\nexport type Probe = ${type};\n`;

describe("layer rules in the lint configuration", () => {
  it.each([
    ["lib/formats", "@/lib/store/db", "Db", "lib/formats may import only lib/api"],
    ["lib/formats", "../store/db", "Db", "lib/formats may import only lib/api"],
    ["lib/metrics", "@/lib/store/db", "Db", "lib/metrics may import only lib/api, lib/formats"],
    [
      "lib/store",
      "@/lib/metrics/requests-log",
      "RequestValues",
      "lib/store may import only lib/api, lib/formats",
    ],
    ["lib/store", "@/lib/ingest/deps", "IngestDeps", "lib/store may import only"],
    ["lib/api", "@/lib/formats/server-metrics/types", "MetricSet", "lib/api is a leaf"],
    ["components", "@/lib/store/db", "Db", "components import only"],
  ])("fails %s importing %s", async (dir, specifier, type, message) => {
    const errors = layerErrors(await lintPlanted(dir, probe(specifier, type)));
    expect(errors).toHaveLength(1);
    expect(errors[0].severity).toBe(2);
    expect(errors[0].message).toContain(message);
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
