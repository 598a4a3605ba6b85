/**
 * How "not recorded" looks everywhere in the breakdown: a grey hatched swatch and the words
 * "not recorded", never an empty or zero-length bar that could be read as 0 ms.
 */
export const NOT_RECORDED_PATTERN_ID = "runlens-not-recorded";

/** SVG <defs> with the hatch pattern; put one inside each chart that uses it. */
export function NotRecordedPattern() {
  return (
    <defs>
      <pattern
        id={NOT_RECORDED_PATTERN_ID}
        width="6"
        height="6"
        patternUnits="userSpaceOnUse"
        patternTransform="rotate(45)"
      >
        <rect width="6" height="6" fill="var(--card)" />
        <line x1="0" y1="0" x2="0" y2="6" stroke="var(--muted)" strokeWidth="2" />
      </pattern>
    </defs>
  );
}

/** Bar attributes of a segment: its colour when recorded, else the hatch with an outline. */
export function segmentCell(colour: string, recorded: boolean) {
  return recorded ? { fill: colour } : { fill: `url(#${NOT_RECORDED_PATTERN_ID})`, stroke: "var(--muted)" };
}

export function NotRecordedSwatch() {
  return (
    <span
      aria-hidden
      className="inline-block h-3 w-3 rounded-sm border border-border"
      style={{ background: "repeating-linear-gradient(45deg, var(--muted) 0 2px, transparent 2px 5px)" }}
    />
  );
}

export function NotRecordedText({ children = "not recorded" }: { children?: string }) {
  return <span className="italic text-muted">{children}</span>;
}
