// The floor every ingest is compared with: a bare line split + JSON.parse over the same bytes,
// in this process, with nothing stored. A whole-document JSON file is parsed in one call; one past
// V8's string limit (~512 MB) cannot be, and has no floor (mbPerSecond null).
import fs from "node:fs";

/** V8's longest string is 2^29 - 24 UTF-16 units; a larger ASCII document cannot be one string. */
const STRING_LIMIT_BYTES = 2 ** 29 - 24;

export async function parseFloor(files) {
  const t0 = process.hrtime.bigint();
  let lines = 0;
  let bytes = 0;
  for (const file of files) {
    if (!/\.jsonl$/i.test(file)) {
      if (/\.json$/i.test(file) && fs.statSync(file).size > STRING_LIMIT_BYTES)
        return { seconds: null, bytes: null, lines: null, mbPerSecond: null, linesPerSecond: null };
      const text = fs.readFileSync(file, "utf8");
      bytes += Buffer.byteLength(text);
      if (/\.json$/i.test(file)) JSON.parse(text);
      lines++;
      continue;
    }
    let rest = Buffer.alloc(0);
    for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) {
      bytes += chunk.length;
      const buf = rest.length ? Buffer.concat([rest, chunk]) : chunk;
      let start = 0;
      for (;;) {
        const nl = buf.indexOf(10, start);
        if (nl === -1) break;
        if (nl > start) {
          JSON.parse(buf.toString("utf8", start, nl));
          lines++;
        }
        start = nl + 1;
      }
      rest = buf.subarray(start);
    }
    if (rest.length) {
      JSON.parse(rest.toString("utf8"));
      lines++;
    }
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return { seconds, bytes, lines, mbPerSecond: bytes / 1e6 / seconds, linesPerSecond: lines / seconds };
}
