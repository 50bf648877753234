// A loopback OTLP/HTTP receiver that keeps every trace export exactly as the framework's exporter
// sent it (content type and bytes), then writes them as the fixture the conformance test replays:
// tests/fixtures/otlp/<framework>/exports.jsonl, one export a line, plus meta.json (the packages
// and versions that produced it) and scenario.json (the ground truth of ./scenario.ts).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { scenario } from "./scenario.ts";

export type RecordedExport = { content_type: string; content_encoding?: string; body_base64: string };

export async function startReceiver(): Promise<{ endpoint: string; exports: RecordedExport[]; close: () => Promise<void> }> {
  const exports: RecordedExport[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method === "POST" && req.url?.endsWith("/v1/traces")) {
        exports.push({
          content_type: String(req.headers["content-type"] ?? ""),
          ...(req.headers["content-encoding"] ? { content_encoding: String(req.headers["content-encoding"]) } : {}),
          body_base64: Buffer.concat(chunks).toString("base64"),
        });
      }
      // An empty ExportTraceServiceResponse: {} in JSON, zero bytes in protobuf.
      const json = String(req.headers["content-type"] ?? "").includes("json");
      res.writeHead(200, { "content-type": json ? "application/json" : "application/x-protobuf" });
      res.end(json ? "{}" : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { endpoint: `http://127.0.0.1:${port}/v1/traces`, exports, close: () => new Promise((r) => server.close(() => r())) };
}

/** Writes the fixture of `framework` under tests/fixtures/otlp/. */
export function writeFixture(framework: string, meta: Record<string, unknown>, exports: RecordedExport[]): string {
  const dir = path.resolve(import.meta.dirname, "../../../tests/fixtures/otlp", framework);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "exports.jsonl"), exports.map((e) => JSON.stringify(e)).join("\n") + "\n");
  writeFileSync(path.join(dir, "meta.json"), JSON.stringify({ framework, node: process.version, ...meta }, null, 2) + "\n");
  writeFileSync(path.join(dir, "scenario.json"), JSON.stringify(scenario.map(({ script: _script, ...run }) => run), null, 2) + "\n");
  return dir;
}

/**
 * The installed version of each package, read from the recorder's node_modules (`recorderDir`),
 * for meta.json. `within` names packages whose own node_modules Node searches first for these
 * names (a nested copy is the one that package loads).
 */
export function installedVersions(recorderDir: string, names: string[], within: string[] = []): Record<string, string> {
  const top = path.join(recorderDir, "node_modules");
  return Object.fromEntries(
    names.map((name) => {
      const dir = [...within.map((w) => path.join(top, w, "node_modules", name)), path.join(top, name)].find((d) => existsSync(d));
      if (!dir) throw new Error(`${name} is not installed in ${recorderDir}`);
      return [name, (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }).version];
    }),
  );
}
