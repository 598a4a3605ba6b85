/** Shared axis formatting of the aiperf charts. */
export const secondsTick = (v: number) => `${Number(v.toFixed(Math.abs(v) >= 100 ? 0 : 1))} s`;

export const LEGEND_STYLE = { fontSize: 11 } as const;
