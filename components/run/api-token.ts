/**
 * The API token a viewer pasted once for write actions (rename, labels) on a server that sets
 * RUNLENS_API_TOKEN. Kept in this browser's localStorage only; never put in a URL.
 */
const KEY = "runlens-api-token";

export function readApiToken(): string | null {
  try {
    return window.localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function saveApiToken(token: string): void {
  try {
    if (token) window.localStorage.setItem(KEY, token);
    else window.localStorage.removeItem(KEY);
  } catch {
    // Storage can be disabled (private mode): the token then lasts for this page only.
  }
}

export function authHeaders(): Record<string, string> {
  const token = readApiToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}
