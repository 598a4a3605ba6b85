import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Ingest and the store run only on the server; keep native and stream-heavy modules external.
  serverExternalPackages: ["better-sqlite3", "pg", "busboy", "yauzl", "tar-stream"],
};

export default nextConfig;
