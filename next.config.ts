import type { NextConfig } from "next";
import { securityHeaders } from "./lib/server/security-headers";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // The build type-checks the app only; `npm run typecheck` covers tests too.
  typescript: { tsconfigPath: "tsconfig.build.json" },
  // A separate output folder lets a second build (benchmarks, parallel checks) run beside the first.
  distDir: process.env.RUNLENS_DIST_DIR || ".next",
  // Ingest and the store run only on the server; keep native and stream-heavy modules external.
  serverExternalPackages: [
    "@duckdb/node-api",
    "@duckdb/node-bindings",
    "better-sqlite3",
    "pg",
    "busboy",
    "yauzl",
    "tar-stream",
  ],
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders(process.env.NODE_ENV === "production") }];
  },
};

export default nextConfig;
