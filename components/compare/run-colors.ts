import { paletteColor } from "@/components/charts/chart-theme";

/** The compared runs' colours, by position: the theme's --chart-N variables (8 runs at most). */
export const runColor = paletteColor;
