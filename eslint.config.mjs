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
            // Two zones, since a zone's exceptions are paths inside each of its `from` folders:
            // one zone over app/ and lib/ with "./api" excepted would open app/api too.
            target: "./components",
            from: "./app",
            message: "layers: components never import app/ (route handlers and pages included).",
          },
          {
            target: "./components",
            from: "./lib",
            except: ["./api", "./metrics", "./format-number.ts"],
            message:
              "layers: components import only lib/api, lib/metrics and lib/format-number (never app/, store, ingest, runs or server).",
          },
          {
            // lib/format-number is a leaf beside lib/api: the browser and every layer use it.
            target: "./lib/format-number.ts",
            from: "./lib",
            except: ["./format-number.ts"],
            message: "layers: lib/format-number is a leaf (it imports nothing of lib/).",
          },
          {
            // bin/ is plain Node that runs before (and without) the app's TypeScript.
            target: "./bin",
            from: ["./lib", "./app", "./components", "./test"],
            message: "layers: bin/ imports only bin/, Node built-ins and npm packages.",
          },
          {
            target: ["./lib", "./app", "./components"],
            from: "./bin",
            message: "layers: nothing of the app imports bin/ (the server entry and CLI).",
          },
        ],
      },
    ],
  },
};

/** No spread arguments in lib/ (see below); repeated where another rule set replaces the list. */
const NO_SPREAD_ARGUMENTS = {
  selector: "CallExpression > SpreadElement, NewExpression > SpreadElement",
  message:
    "No spread arguments in lib/: an unbounded array overflows the call stack. Use a loop (push, Math.max) or a fixed-size tuple parameter.",
};

/**
 * lib/metrics is pure (docs/architecture.md): every number is a function of its inputs, so it
 * reads no file, no environment and no clock.
 */
const pureMetrics = {
  files: ["lib/metrics/**/*.{ts,tsx,mjs}"],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          {
            group: [
              "node:*",
              "fs",
              "fs/*",
              "path",
              "os",
              "child_process",
              "worker_threads",
              "net",
              "http",
              "https",
            ],
            message: "lib/metrics is pure: no Node built-ins (no IO). Pass the data in.",
          },
        ],
      },
    ],
    "no-restricted-properties": [
      "error",
      { object: "Date", property: "now", message: "lib/metrics is pure: no clock. Pass the time in." },
      { object: "performance", property: "now", message: "lib/metrics is pure: no clock. Pass the time in." },
      {
        object: "process",
        property: "env",
        message: "lib/metrics is pure: no environment. Pass the setting in.",
      },
      {
        object: "Math",
        property: "random",
        message: "lib/metrics is pure: use the seeded stream in regression/.",
      },
    ],
    "no-restricted-syntax": [
      "error",
      NO_SPREAD_ARGUMENTS,
      {
        selector: "NewExpression[callee.name='Date'][arguments.length=0]",
        message: "lib/metrics is pure: no clock (new Date() reads it). Pass the time in.",
      },
    ],
  },
};

/** No import cycles in the app's own code (a cycle makes load order decide what is defined). */
const noCycles = {
  files: ["lib/**/*.{ts,tsx,mjs}", "app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
  rules: { "import/no-cycle": ["error", { ignoreExternal: true }] },
};

const config = [
  ...nextVitals,
  ...nextTs,
  layerRules,
  noCycles,
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
      "no-restricted-syntax": ["error", NO_SPREAD_ARGUMENTS],
    },
  },
  pureMetrics,
  {
    // A browser test waits for what it needs (a state, a settled layout: settleLayout in
    // test/e2e/harness.ts), never a fixed time: at a load of 30 a fixed wait is too short, and at
    // rest it is time thrown away. Only a screenshot's own settle (harness.ts `shot`) may sleep.
    files: ["test/e2e/**/*.ts"],
    ignores: ["test/e2e/harness.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.property.name='waitForTimeout']",
          message:
            "No fixed wait in a browser test: wait for the state (settleLayout, waitForFunction, expect.poll).",
        },
      ],
    },
  },
];
export default config;
