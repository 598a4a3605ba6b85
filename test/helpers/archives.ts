import { gzipSync } from "node:zlib";
import tar from "tar-stream";
import yazl from "yazl";

export interface ArchiveEntry {
  name: string;
  content: Buffer | string;
}

export async function makeZip(entries: ArchiveEntry[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const e of entries) zip.addBuffer(Buffer.from(e.content), e.name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function makeTarGz(entries: ArchiveEntry[]): Promise<Buffer> {
  const pack = tar.pack();
  for (const e of entries) pack.entry({ name: e.name }, Buffer.from(e.content));
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const c of pack) chunks.push(c as Buffer);
  return gzipSync(Buffer.concat(chunks));
}
