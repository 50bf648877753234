/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // Lets parallel work trees or test runs build side by side (default .next).
  distDir: process.env.PROCTOR_DIST_DIR || ".next",
  poweredByHeader: false,
  // PGlite, pg and the Prisma adapter run in Node only; keep them out of the bundle (and the OTLP
  // protobuf code, which lib/otlp/wire.ts requires at run time).
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "pg", "@prisma/adapter-pg", "@opentelemetry/otlp-transformer", "protobufjs"],
  // tsc --noEmit is its own suite (scripts/test.ts, CI); a second pass here would only slow the build.
  typescript: { ignoreBuildErrors: true },
  // forbidden(): console pages answer 403 with the forbidden page when the role is too low.
  experimental: {
    authInterrupts: true,
    // Turbopack's build cache pays off on a developer's rebuilds; on CI's fresh clone it is only
    // written, never read (tens of seconds of the test run).
    turbopackFileSystemCacheForBuild: !process.env.CI,
  },
};

export default nextConfig;
