"use client";

import { useState } from "react";

/** Copies the page's full URL, view state included, so the link reopens this exact view. */
export function CopyLinkButton() {
  const [copied, setCopied] = useState(false);
  async function copy() {
    const url = window.location.href;
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      // Clipboard access can be refused (insecure origin); fall back to a hidden textarea.
      const ta = document.createElement("textarea");
      ta.value = url;
      document.body.appendChild(ta);
      ta.select();
      document.execCommand("copy");
      ta.remove();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  }
  return (
    <button type="button" className="btn" onClick={copy} data-testid="copy-link">
      {copied ? "Link copied" : "Copy link"}
    </button>
  );
}
