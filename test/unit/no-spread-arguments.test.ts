/**
 * A spread argument puts every element of its array on the call stack, so `push(...values)` or
 * `Math.max(...values)` throws once a scrape or a run is large enough. The lint rule that keeps
 * them out of lib/ must catch a new one, and lib/ must hold none.
 */
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
const RULE = "no-restricted-syntax";

describe("no spread arguments in lib/", () => {
  const eslint = new ESLint({ cwd: root });

  it("flags a planted spread in a call and in a constructor call", async () => {
    const code = [
      "export function f(values: number[], out: number[]): number {",
      "  out.push(...values);",
      "  void new Set(...[values]);",
      "  return Math.max(...values);",
      "}",
      "",
    ].join("\n");
    const [result] = await eslint.lintText(code, { filePath: path.join(root, "lib/metrics/planted.ts") });
    const lines = result.messages.filter((m) => m.ruleId === RULE).map((m) => m.line);
    expect(lines).toEqual([2, 3, 4]);
    expect(result.messages.find((m) => m.ruleId === RULE)?.message).toMatch(/call stack/);
  });

  it("leaves spreads in array and object literals alone", async () => {
    const code = "export const f = (a: number[], o: object) => ({ ...o, all: [...a, ...a] });\n";
    const [result] = await eslint.lintText(code, { filePath: path.join(root, "lib/metrics/planted.ts") });
    expect(result.messages.filter((m) => m.ruleId === RULE)).toEqual([]);
  });

  it("finds none in lib/", async () => {
    // The project's configuration, this rule alone: the others (import/no-cycle walks every
    // import) are `npm run lint`'s, and took most of this test's CPU.
    const only = new ESLint({ cwd: root, ruleFilter: ({ ruleId }) => ruleId === RULE });
    const results = await only.lintFiles(["lib"]);
    const found = results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId === RULE).map((m) => `${path.relative(root, r.filePath)}:${m.line}`),
    );
    expect(found).toEqual([]);
    // Linting the whole of lib/ with every rule took over 60 s beside the build and the browser tests.
  }, 300_000);
});
