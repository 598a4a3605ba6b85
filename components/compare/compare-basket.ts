"use client";

import { useSyncExternalStore } from "react";

/**
 * Runs set aside for comparison from their run pages ("Add to compare"), kept in this browser
 * until the compare page is opened with them (then the URL holds them).
 */
const KEY = "runlens-compare-basket";
const MAX = 8;
const listeners = new Set<() => void>();
let cache: { raw: string | null; ids: string[] } = { raw: null, ids: [] };

function read(): string[] {
  let raw: string | null = null;
  try {
    raw = window.localStorage.getItem(KEY);
  } catch {
    // storage disabled: the basket is empty
  }
  if (raw !== cache.raw) {
    let ids: string[] = [];
    try {
      const v: unknown = raw ? JSON.parse(raw) : [];
      if (Array.isArray(v)) ids = v.filter((x): x is string => typeof x === "string").slice(0, MAX);
    } catch {
      ids = [];
    }
    cache = { raw, ids };
  }
  return cache.ids;
}

function write(ids: string[]): void {
  try {
    window.localStorage.setItem(KEY, JSON.stringify(ids.slice(-MAX)));
  } catch {
    // storage disabled
  }
  listeners.forEach((l) => l());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}

const EMPTY: string[] = [];

export function useCompareBasket() {
  const ids = useSyncExternalStore(subscribe, read, () => EMPTY);
  return {
    ids,
    toggle: (id: string) => write(ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]),
    clear: () => write([]),
  };
}
