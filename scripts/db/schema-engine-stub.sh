#!/bin/sh
# Stand-in for Prisma's native schema engine: `prisma generate` only asks it for a version.
# Migrations run through the official WASM schema engine instead (scripts/db/migrate.ts).
echo "schema-engine-cli 7.10.0"
