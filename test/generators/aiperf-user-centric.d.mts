export function aiperfUserCentric(opts?: {
  users?: number;
  turns?: number;
  phases?: number;
  warmup?: number;
}): {
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- records, read as JSON
  records: Array<Record<string, any>>;
};
