/**
 * The app's font (Geist, served by next/font/local) as @font-face rules with the font inlined: an
 * exported SVG, and the image a PNG is painted from, may not load anything from outside, so a
 * referenced font file would fall back to a system font.
 */
let cached: Promise<string> | undefined;

export function embeddedFontCss(): Promise<string> {
  cached ??= collectFontCss().catch(() => "");
  return cached;
}

/** The family names of <body>'s font stack, first to last, unquoted. */
export function bodyFontFamilies(): string[] {
  return getComputedStyle(document.body)
    .fontFamily.split(",")
    .map((f) => f.trim().replace(/^["']|["']$/g, ""));
}

async function collectFontCss(): Promise<string> {
  const families = new Set(bodyFontFamilies());
  const faces = fontFaceRules().filter((r) => families.has(unquote(r.style.getPropertyValue("font-family"))));
  const css = await Promise.all(faces.map(inlineFace));
  return css.join("\n");
}

function fontFaceRules(): CSSFontFaceRule[] {
  const found: CSSFontFaceRule[] = [];
  const walk = (rules: CSSRuleList) => {
    for (const rule of Array.from(rules)) {
      if (rule instanceof CSSFontFaceRule) found.push(rule);
      else if ("cssRules" in rule) walk((rule as CSSGroupingRule).cssRules);
    }
  };
  for (const sheet of Array.from(document.styleSheets)) {
    try {
      walk(sheet.cssRules);
    } catch {
      // A cross-origin sheet cannot be read; ours are same-origin.
    }
  }
  return found;
}

async function inlineFace(rule: CSSFontFaceRule): Promise<string> {
  const src = rule.style.getPropertyValue("src");
  const url = /url\(\s*["']?([^"')]+)["']?\s*\)/.exec(src)?.[1];
  if (!url) return "";
  const res = await fetch(new URL(url, rule.parentStyleSheet?.href ?? location.href));
  if (!res.ok) return "";
  const dataUrl = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    void res.blob().then((b) => reader.readAsDataURL(b), reject);
  });
  const prop = (p: string, dflt: string) => rule.style.getPropertyValue(p) || dflt;
  return (
    `@font-face{font-family:"${unquote(rule.style.getPropertyValue("font-family"))}";` +
    `src:url(${dataUrl});font-weight:${prop("font-weight", "normal")};` +
    `font-style:${prop("font-style", "normal")};font-display:block}`
  );
}

const unquote = (s: string) => s.trim().replace(/^["']|["']$/g, "");
