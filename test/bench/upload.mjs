// A streaming multipart upload over plain HTTP: files are piped from disk, never held whole,
// so the client's memory does not depend on the input size.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";

export async function streamUpload(baseUrl, files, fields = {}) {
  const boundary = `----runlens-bench-${Date.now().toString(16)}`;
  const url = new URL("/api/runs", baseUrl);
  const startedAt = Date.now();
  const t0 = process.hrtime.bigint();
  const res = await new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: "POST", headers: { "content-type": `multipart/form-data; boundary=${boundary}` } },
      (r) => {
        let body = "";
        r.setEncoding("utf8");
        r.on("data", (d) => (body += d));
        r.on("end", () => resolve({ status: r.statusCode, body }));
        r.on("error", reject);
      },
    );
    req.on("error", reject);
    (async () => {
      const write = (s) => (req.write(s) ? undefined : new Promise((r) => req.once("drain", r)));
      for (const [k, v] of Object.entries(fields))
        await write(`--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
      for (const f of files) {
        await write(
          `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${path.basename(f)}"\r\n` +
            `content-type: application/octet-stream\r\n\r\n`,
        );
        for await (const chunk of fs.createReadStream(f, { highWaterMark: 1 << 20 })) await write(chunk);
        await write("\r\n");
      }
      req.end(`--${boundary}--\r\n`);
    })().catch((err) => req.destroy(err));
  });
  // The upload answers once the summary is stored ("summary ready").
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${res.body.slice(0, 500)}`);
  return { seconds, startedAt, body: JSON.parse(res.body) };
}
