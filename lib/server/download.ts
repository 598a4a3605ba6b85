/** Helpers for routes that answer a file to save: a streamed body and a safe file name. */

/** A byte stream pulled chunk by chunk from text chunks, so a slow reader slows the producer. */
export function textStream(chunks: AsyncIterator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return?.(undefined);
    },
  });
}

/**
 * `<run name>-<suffix>` with only letters, digits, dots, dashes and underscores: the name is the
 * uploader's text, and a quote or a newline in a header would break it.
 */
export function attachmentName(runName: string, suffix: string): string {
  const base = runName
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);
  return `${base || "run"}-${suffix}`;
}

/** An HTML file to save: the browser downloads it under the run's name rather than navigating to it. */
export function htmlAttachment(html: string, name: string, suffix: string): Response {
  return new Response(html, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Disposition": `attachment; filename="${attachmentName(name, suffix)}"`,
      "Cache-Control": "no-cache",
    },
  });
}
