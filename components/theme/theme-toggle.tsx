"use client";

import { useSyncExternalStore } from "react";
import { THEME_CHOICES, THEME_STORAGE_KEY, type ThemeChoice } from "./theme-script";

const LABELS: Record<ThemeChoice, string> = { system: "System", light: "Light", dark: "Dark" };

// The choice lives on <html> (set by the inline theme script); this store only watches it.
function subscribe(onChange: () => void) {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributeFilter: ["data-theme-choice"] });
  return () => observer.disconnect();
}
const current = () => (document.documentElement.dataset.themeChoice as ThemeChoice) ?? "system";

function choose(choice: ThemeChoice) {
  try {
    if (choice === "system") localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Storage refused (private mode): the choice holds for this page only.
  }
  const apply = (window as { __runlensApplyTheme?: () => void }).__runlensApplyTheme;
  if (apply) apply();
  else document.documentElement.dataset.theme = choice === "dark" ? "dark" : "light";
}

/** System / light / dark, remembered in this browser. */
export function ThemeToggle() {
  const choice = useSyncExternalStore(subscribe, current, () => "system" as ThemeChoice);
  return (
    <label className="ml-auto flex items-center gap-2 text-sm text-muted">
      <span className="sr-only sm:not-sr-only">Theme</span>
      <select
        aria-label="Theme"
        className="input py-1"
        value={choice}
        onChange={(e) => choose(e.target.value as ThemeChoice)}
      >
        {THEME_CHOICES.map((c) => (
          <option key={c} value={c}>
            {LABELS[c]}
          </option>
        ))}
      </select>
    </label>
  );
}
