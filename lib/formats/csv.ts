/**
 * The one CSV field splitter behind every CSV reader (RFC 4180 quoting: a quote opens a quoted
 * stretch anywhere in a field, `""` inside it is a literal quote, commas inside it are text).
 */

/** Splits `text` into fields; `open` says a quoted field was still open at the end. */
function splitFields(text: string): { fields: string[]; open: boolean } {
  const fields: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c !== '"') cur += c;
      else if (text[i + 1] === '"') {
        cur += '"';
        i++;
      } else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      fields.push(cur);
      cur = "";
    } else cur += c;
  }
  fields.push(cur);
  return { fields, open: quoted };
}

/** Splits one CSV row; an unclosed quote runs to the end of the row. */
export function splitCsvRow(line: string): string[] {
  return splitFields(line).fields;
}

/**
 * Splits one CSV record. Returns null while a quoted field is still open, so a reader can join
 * the next line and try again (quoted fields may hold line breaks).
 */
export function splitCsvRecord(text: string): string[] | null {
  const { fields, open } = splitFields(text);
  return open ? null : fields;
}
