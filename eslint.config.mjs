import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      ".next*/**",
      "node_modules/**",
      "data/**",
      "test/fixtures/**",
      "next-env.d.ts",
      "test-results/**",
    ],
  },
  {
    // A spread argument puts every element on the call stack: past ~100k elements (series of a
    // scrape, records of a run) the call throws "Maximum call stack size exceeded".
    files: ["lib/**/*.{ts,tsx,mjs}"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression > SpreadElement, NewExpression > SpreadElement",
          message:
            "No spread arguments in lib/: an unbounded array overflows the call stack. Use a loop (push, Math.max) or a fixed-size tuple parameter.",
        },
      ],
    },
  },
];
export default config;
