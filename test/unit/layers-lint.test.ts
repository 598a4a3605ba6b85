import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");

/**
 * Lints one planted file with the project's own configuration, but for the cycle rule (pinned by
 * its own test below): following a planted import of a route handler through the whole import
 * graph takes a minute on a loaded machine and says nothing about layers. The file sits inside
 * the tree (the layer zones are paths of the tree) and is removed whatever happens.
 */
async function lintPlanted(relDir: string, source: string, ext = "ts"): Promise<ESLint.LintResult> {
  const file = path.join(root, relDir, `layers-probe-${randomUUID()}.${ext}`);
  fs.writeFileSync(file, source);
  try {
    const eslint = new ESLint({ cwd: root, overrideConfig: { rules: { "import/no-cycle": "off" } } });
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

  it("fails a component importing a route handler under app/api", async () => {
    const errors = layerErrors(
      await lintPlanted(
        "components",
        'import { GET } from "@/app/api/runs/route";\nexport const probe = GET;\n',
      ),
    );
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toContain("components never import app/");
  });

  it("keeps lib/format-number a leaf", async () => {
    const eslint = new ESLint({ cwd: root });
    const [result] = await eslint.lintText(
      'import type { Db } from "@/lib/store/db";\nexport type Probe = Db;\n',
      { filePath: path.join(root, "lib/format-number.ts") },
    );
    expect(layerErrors(result).map((m) => m.message)).toEqual([
      expect.stringContaining("lib/format-number is a leaf"),
    ]);
  });

  it("fails bin/ importing the app, and the app importing bin/", async () => {
    const fromBin = layerErrors(
      await lintPlanted(
        "bin",
        'import { formatNumber } from "../lib/format-number";\nexport const probe = formatNumber;\n',
        "mjs",
      ),
    );
    expect(fromBin.map((m) => m.message)).toEqual([expect.stringContaining("bin/ imports only bin/")]);
    const intoBin = layerErrors(
      await lintPlanted(
        "lib/runs",
        'import { serve } from "../../bin/http-server.mjs";\nexport const probe = serve;\n',
      ),
    );
    expect(intoBin.map((m) => m.message)).toEqual([
      expect.stringContaining("nothing of the app imports bin/"),
    ]);
  });

  it.each([
    ['import fs from "node:fs";\nexport const probe = fs;\n', "no-restricted-imports"],
    ["export const probe = () => Date.now();\n", "no-restricted-properties"],
    ["export const probe = () => performance.now();\n", "no-restricted-properties"],
    ["export const probe = () => process.env.X;\n", "no-restricted-properties"],
    ["export const probe = () => new Date();\n", "no-restricted-syntax"],
  ])("keeps lib/metrics pure: %s", async (source, rule) => {
    const result = await lintPlanted("lib/metrics", source);
    const errors = result.messages.filter((m) => m.ruleId === rule);
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toContain("lib/metrics is pure");
  });

  it("fails an import cycle", async () => {
    const a = `layers-cycle-a-${randomUUID()}`;
    const b = `layers-cycle-b-${randomUUID()}`;
    const dir = path.join(root, "lib/runs");
    fs.writeFileSync(path.join(dir, `${a}.ts`), `import { b } from "./${b}";\nexport const a = () => b();\n`);
    fs.writeFileSync(
      path.join(dir, `${b}.ts`),
      `import { a } from "./${a}";\nexport const b = (): unknown => a;\n`,
    );
    try {
      const eslint = new ESLint({ cwd: root });
      const [result] = await eslint.lintFiles([path.join(dir, `${a}.ts`)]);
      expect(result.messages.filter((m) => m.ruleId === "import/no-cycle")).toHaveLength(1);
    } finally {
      fs.rmSync(path.join(dir, `${a}.ts`), { force: true });
      fs.rmSync(path.join(dir, `${b}.ts`), { force: true });
    }
  });
});
