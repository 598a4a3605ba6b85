// Whether the production build in a dist folder was made from the sources now in the checkout.
// `npm start` asks this before building, so a restart costs seconds instead of a full build.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * Everything `next build` reads, relative to the checkout. Folders are walked whole;
 * `next-env.d.ts` is left out because the build rewrites it.
 */
export const BUILD_INPUTS = [
  "app",
  "components",
  "lib",
  "public",
  "instrumentation.ts",
  "middleware.ts",
  "proxy.ts",
  "next.config.ts",
  "postcss.config.mjs",
  "tsconfig.json",
  "tsconfig.build.json",
  "package.json",
  "package-lock.json",
  ".env",
  ".env.local",
  ".env.production",
  ".env.production.local",
];

/** The file inside the dist folder that holds the hash of the sources it was built from. */
export const STAMP_FILE = "runlens-sources.sha256";

/**
 * One hash over the paths and bytes of every build input, and over the NEXT_PUBLIC_ variables,
 * which the build inlines into client code. Inputs that do not exist count as absent, so adding
 * one changes the hash too.
 */
export function sourcesHash(root, env = process.env) {
  const h = crypto.createHash("sha256");
  const add = (rel) => {
    const abs = path.join(root, rel);
    const st = fs.statSync(abs, { throwIfNoEntry: false });
    if (!st) return;
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(abs).sort()) add(path.posix.join(rel, name));
    } else if (st.isFile()) {
      h.update(`${rel}\0${st.size}\0`);
      h.update(fs.readFileSync(abs));
    }
  };
  for (const rel of BUILD_INPUTS) add(rel);
  for (const key of Object.keys(env).sort())
    if (key.startsWith("NEXT_PUBLIC_")) h.update(`env\0${key}=${env[key]}\0`);
  return h.digest("hex");
}

/** True when distDir holds a finished build stamped with `hash`. */
export function buildIsCurrent(root, distDir, hash) {
  const dist = path.resolve(root, distDir);
  if (!fs.existsSync(path.join(dist, "BUILD_ID"))) return false;
  try {
    return fs.readFileSync(path.join(dist, STAMP_FILE), "utf8").trim() === hash;
  } catch {
    return false;
  }
}

/** Records that the build just finished in distDir was made from `hash`. */
export function stampBuild(root, distDir, hash) {
  fs.writeFileSync(path.join(path.resolve(root, distDir), STAMP_FILE), `${hash}\n`);
}
