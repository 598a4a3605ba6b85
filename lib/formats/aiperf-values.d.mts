/** Factors to milliseconds by unit name */
export declare const TO_MS: Readonly<Record<string, number>>;

/** Converts a duration to milliseconds; a missing unit is taken as already-ms (aiperf's display unit). */
export declare function toMs(value: number, unit: string | undefined): number;

/** A scalar metric in canonical units (time → ms); null when absent or not a number. */
export declare function metricNumber(raw: unknown): number | null;
