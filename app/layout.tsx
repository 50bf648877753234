import type { Metadata } from "next";
import { headers } from "next/headers";
import { Providers } from "@/components/providers";
import "./globals.css";

// The icon and web manifest live in public/ (the proxy serves them without a session).
export const metadata: Metadata = {
  title: "Proctor",
  description: "Review what your AI agents have learned",
  manifest: "/manifest.webmanifest",
  icons: { icon: { url: "/icon.svg", type: "image/svg+xml" }, apple: "/icon.svg" },
};

// Runs before first paint so a dark-mode reader never sees a white flash: the stored choice,
// else the system preference. components/shell/theme-toggle.tsx writes the same key.
const themeScript = `try{var t=localStorage.getItem("proctor-theme");if(t==="dark"||(!t&&matchMedia("(prefers-color-scheme: dark)").matches))document.documentElement.classList.add("dark")}catch(e){}`;

// The page's script nonce (proxy.ts) lets it run under the Content-Security-Policy; reading
// it renders every page per request, as nonces require.
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeScript }} />
      </head>
      <body className="min-h-screen bg-white text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
