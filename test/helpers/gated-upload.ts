/**
 * A multipart upload whose body arrives in two steps: everything before the gate at once, the
 * rest only when the test opens it. With a hook on the blob store this pins an upload between
 * "a file is stored" and "the upload's file rows are written".
 */
export interface GatedPart {
  name: string;
  /** Sent before the gate */
  head: Buffer;
  /** Sent after it */
  tail?: Buffer;
}

export function gatedUpload(parts: GatedPart[]): { request: Request; open: () => void } {
  const boundary = "runlens-gated-boundary";
  const enc = (s: string) => Buffer.from(s, "utf8");
  const before: Buffer[] = [];
  const after: Buffer[] = [];
  let gateReached = false;
  for (const p of parts) {
    const into = gateReached ? after : before;
    into.push(
      enc(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${p.name}"\r\n` +
          `Content-Type: application/octet-stream\r\n\r\n`,
      ),
      p.head,
    );
    if (p.tail) {
      gateReached = true;
      after.push(p.tail);
    }
    (gateReached ? after : before).push(enc("\r\n"));
  }
  after.push(enc(`--${boundary}--\r\n`));
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(new Uint8Array(Buffer.concat(before)));
      await gate;
      controller.enqueue(new Uint8Array(Buffer.concat(after)));
      controller.close();
    },
  });
  const request = new Request("http://localhost/api/runs", {
    method: "POST",
    body,
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    duplex: "half",
  } as RequestInit);
  return { request, open };
}
