"use client";

import { useState } from "react";
import { saveApiToken } from "./api-token";

/** Asked for once when the server answers 401: the token is kept in this browser and the action retried. */
export function TokenPrompt({ onSaved }: { onSaved: () => void }) {
  const [token, setToken] = useState("");
  return (
    <form
      className="flex flex-wrap items-center gap-2 text-xs"
      onSubmit={(e) => {
        e.preventDefault();
        saveApiToken(token.trim());
        onSaved();
      }}
    >
      <span className="text-warn">This server needs an API token to change runs.</span>
      <input
        type="password"
        className="input py-0.5"
        aria-label="API token"
        placeholder="API token"
        value={token}
        onChange={(e) => setToken(e.target.value)}
      />
      <button type="submit" className="btn-ghost" disabled={!token.trim()}>
        Save and retry
      </button>
    </form>
  );
}
