// The floor every ingest is compared with: a bare line split + JSON.parse over the same bytes,
// in this process, with nothing stored. A whole-document JSON file is parsed in one call.
import fs from "node:fs";

export async function parseFloor(files) {
  const t0 = process.hrtime.bigint();
  let lines = 0;
  let bytes = 0;
  for (const file of files) {
    if (!/\.jsonl$/i.test(file)) {
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
