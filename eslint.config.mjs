import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

/**
 * The layers of lib/, lowest first: a layer may import only the layers before it (see
 * docs/architecture.md), less the ones in SIDE_BY_SIDE. lib/api, the wire contracts, imports no
 * other part of lib.
 */
const LAYERS = ["api", "formats", "metrics", "store", "ingest", "runs", "server", "examples"];

/** The store keeps what it is given and the math computes without knowing where rows go. */
const SIDE_BY_SIDE = { store: ["metrics"] };

const layerZones = LAYERS.map((layer, i) => {
  if (layer === "api")
    return {
      target: "./lib/api",
      from: "./lib",
      except: ["./api"],
      message: "layers: lib/api is a leaf (wire contracts import only zod and lib/api).",
    };
  const banned = SIDE_BY_SIDE[layer] ?? [];
  const allowed = LAYERS.slice(0, i).filter((l) => !banned.includes(l));
  return {
    target: `./lib/${layer}`,
    from: [...banned, ...LAYERS.slice(i + 1)].map((l) => `./lib/${l}`),
    message: `layers: lib/${layer} may import only ${allowed.map((l) => `lib/${l}`).join(", ")}.`,
  };
});

const layerRules = {
  files: ["**/*.{ts,tsx,js,mjs}"],
  rules: {
    "import/no-restricted-paths": [
      "error",
      {
        zones: [
          ...layerZones,
          {
            target: "./lib",
            from: ["./app", "./components"],
            message: "layers: lib/ never imports app/ or components/.",
          },
          {
            target: "./components",
            from: ["./app", "./lib"],
            except: ["./api", "./metrics", "./format-number.ts"],
            message:
              "layers: components import only lib/api, lib/metrics and lib/format-number (never app/, store, ingest, runs or server).",
          },
        ],
      },
    ],
  },
};

const config = [
  ...nextVitals,
  ...nextTs,
  layerRules,
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
