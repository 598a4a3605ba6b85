export declare const PARSE_FAILED: unique symbol;

/** JSON.parse that returns PARSE_FAILED instead of throwing, and accepts NaN/Infinity as null. */
export declare function parseJsonText(text: string): unknown;
