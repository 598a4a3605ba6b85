type Id = bigint | number | string;
type Line = Record<string, unknown>;
export declare const CTX_HOST_OFFSET: number;
export declare const T: number;
export declare function jsonLines(lines: readonly Line[]): string;
export declare function routerLines(id: Id, i: number): Line[];
export declare function ctxLines(id: Id, i: number): Line[];
export declare function genLines(id: Id, i: number, rank: number): Line[];
export declare function perfRecord(id: Id, i: number): string;
export declare function manyRequestsRun(
  n: number,
  full: readonly number[],
  idOf: (i: number) => Id,
  dir?: string,
): Array<{ name: string; content: string }>;
