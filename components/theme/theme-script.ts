/** Where the chosen theme is remembered: "light", "dark", or absent for the system's. */
export const THEME_STORAGE_KEY = "runlens-theme";

export const THEME_CHOICES = ["system", "light", "dark"] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

/**
 * Sets `data-theme` (the resolved theme the CSS reads) and `data-theme-choice` on <html> from the
 * stored choice or the system preference. It runs inline in <head>, before the body is parsed,
 * so a dark page never flashes light first; with the system choice it follows later changes of
 * the preference too. Plain ES5, no imports: it is sent as text.
 */
export const THEME_SCRIPT = `(function () {
  var root = document.documentElement;
  var media = window.matchMedia("(prefers-color-scheme: dark)");
  function apply() {
    var choice = null;
    try { choice = localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)}); } catch (e) {}
    if (choice !== "light" && choice !== "dark") choice = "system";
    root.dataset.themeChoice = choice;
    root.dataset.theme = choice === "system" ? (media.matches ? "dark" : "light") : choice;
  }
  apply();
  window.__runlensApplyTheme = apply;
  media.addEventListener("change", apply);
})();`;
