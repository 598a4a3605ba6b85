/**
 * app/globals.css as the build writes it: Tailwind's variants expanded (the dark theme's one set of
 * declarations under each of its selectors), not minified, so a test reads the rules a browser
 * gets. No utility classes: the sources are not scanned, only the stylesheet is compiled.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import tailwind from "@tailwindcss/postcss";
import postcss from "postcss";

const GLOBALS = path.join(__dirname, "../../app/globals.css");

let built: Promise<string> | null = null;

export function builtGlobalsCss(): Promise<string> {
  built ??= postcss([tailwind({ base: fs.mkdtempSync(path.join(os.tmpdir(), "runlens-css-")) })])
    .process(fs.readFileSync(GLOBALS, "utf8"), { from: GLOBALS })
    .then((r) => r.css);
  return built;
}
