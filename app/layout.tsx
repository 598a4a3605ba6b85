import { GeistMono } from "geist/font/mono";
import { GeistSans } from "geist/font/sans";
import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { THEME_SCRIPT } from "@/components/theme/theme-script";
import { ThemeToggle } from "@/components/theme/theme-toggle";
import "./globals.css";
import { Providers } from "./providers";

export const metadata: Metadata = {
  title: "Runlens",
  description: "Upload, chart, share and compare LLM-serving benchmark runs",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // The theme script sets data-theme on <html> before hydration, hence the warning suppressed.
    <html lang="en" className={`${GeistSans.variable} ${GeistMono.variable}`} suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body className="min-h-screen font-sans antialiased">
        <Providers>
          <header className="border-b border-border bg-card">
            <div className="mx-auto flex max-w-7xl items-center gap-4 px-4 py-2 sm:gap-6 sm:py-3">
              <Link href="/" className="text-lg font-semibold tracking-tight">
                Runlens
              </Link>
              <nav className="flex gap-4 text-sm text-muted">
                <Link href="/" className="hover:text-fg">
                  Runs
                </Link>
                <Link href="/compare" className="hover:text-fg">
                  Compare
                </Link>
              </nav>
              <ThemeToggle />
            </div>
          </header>
          <main className="mx-auto max-w-7xl px-4 py-4 sm:py-6">{children}</main>
        </Providers>
      </body>
    </html>
  );
}
