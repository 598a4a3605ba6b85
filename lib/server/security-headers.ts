/**
 * Response headers for every page and API route (wired in next.config.ts).
 *
 * Scripts: Next.js streams its page data in inline <script> tags, so script-src needs
 * 'unsafe-inline' unless every page carries a per-request nonce, which would make every page
 * dynamic and uncacheable. We accept 'unsafe-inline' and rely on React's escaping for text from
 * uploads (run names, labels, endpoint URLs, error messages are never injected as HTML; a browser
 * test checks it); the policy still blocks scripts and connections from other origins, plugins,
 * framing and `eval`. 'unsafe-eval' is allowed only in development, where React's dev tooling
 * needs it.
 */
export function contentSecurityPolicy(production: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${production ? "" : " 'unsafe-eval'"}`,
    // Recharts and Tailwind set inline styles.
    "style-src 'self' 'unsafe-inline'",
    // data:/blob: for chart PNG export and CSV downloads.
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${production ? "" : " ws: wss:"}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function securityHeaders(production: boolean): Array<{ key: string; value: string }> {
  return [
    { key: "Content-Security-Policy", value: contentSecurityPolicy(production) },
    { key: "X-Content-Type-Options", value: "nosniff" },
    // Run links are the only key to a private run: never leak them to other sites.
    { key: "Referrer-Policy", value: "no-referrer" },
    { key: "X-Frame-Options", value: "DENY" },
    { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
    { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
  ];
}
