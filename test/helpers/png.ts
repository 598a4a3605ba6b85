import { inflateSync } from "node:zlib";

/** A decoded PNG: RGBA, 8 bits per channel, rows top to bottom. */
export interface DecodedPng {
  width: number;
  height: number;
  /** width × height × 4 bytes. */
  rgba: Uint8Array;
}

const SIGNATURE = "89504e470d0a1a0a";
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

/**
 * Decodes the PNGs a canvas writes (8-bit greyscale, RGB or RGBA, not interlaced): enough for a
 * test to look at an exported figure's pixels without an image library.
 */
export function decodePng(bytes: Buffer): DecodedPng {
  if (bytes.subarray(0, 8).toString("hex") !== SIGNATURE) throw new Error("not a PNG");
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString("latin1", at + 4, at + 8);
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [depth, colour, , , interlace] = data.subarray(8, 13);
      channels = CHANNELS[colour] ?? 0;
      if (depth !== 8 || !channels || interlace !== 0)
        throw new Error(`unsupported PNG: depth ${depth}, colour type ${colour}, interlace ${interlace}`);
    } else if (type === "IDAT") idat.push(data);
    else if (type === "IEND") break;
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const px = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? px[y * stride + i - channels] : 0;
      const b = y > 0 ? px[(y - 1) * stride + i] : 0;
      const c = y > 0 && i >= channels ? px[(y - 1) * stride + i - channels] : 0;
      px[y * stride + i] = (line[i] + predict(filter, a, b, c)) & 0xff;
    }
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let p = 0; p < width * height; p++) {
    const s = px.subarray(p * channels, (p + 1) * channels);
    const [r, g, b, alpha] =
      channels === 4 ? s : channels === 3 ? [s[0], s[1], s[2], 255] : [s[0], s[0], s[0], s[1] ?? 255];
    rgba.set([r, g, b, alpha], p * 4);
  }
  return { width, height, rgba };
}

// The five PNG filters (RFC 2083 §6): the byte is stored as the difference to this prediction.
function predict(filter: number, a: number, b: number, c: number): number {
  if (filter === 0) return 0;
  if (filter === 1) return a;
  if (filter === 2) return b;
  if (filter === 3) return (a + b) >> 1;
  if (filter === 4) {
    const p = a + b - c;
    const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
  }
  throw new Error(`bad PNG filter ${filter}`);
}

/** Pixels in rows [top, bottom) that differ from `background` by more than a little. */
export function inkPixels(png: DecodedPng, top: number, bottom: number, background: number[]): number {
  let n = 0;
  for (let y = Math.max(0, top); y < Math.min(png.height, bottom); y++)
    for (let x = 0; x < png.width; x++) {
      const i = (y * png.width + x) * 4;
      const d = [0, 1, 2].reduce((m, k) => Math.max(m, Math.abs(png.rgba[i + k] - background[k])), 0);
      if (d > 40) n++;
    }
  return n;
}
