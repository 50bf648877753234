// The OTLP trace messages, as the OpenTelemetry project generates them from its own .proto files
// (the static protobufjs module @opentelemetry/otlp-transformer ships), and google.rpc.Status,
// the error body the OTLP/HTTP spec names, built with protobufjs from that message's definition.
import { createRequire } from "node:module";
import protobuf from "protobufjs/light.js";

const require = createRequire(import.meta.url);

/** What we use of a generated message class. */
type MessageClass = {
  decode(bytes: Uint8Array): object;
  fromObject(value: object): object;
  toObject(message: object, options: protobuf.IConversionOptions): Record<string, unknown>;
  encode(message: object): { finish(): Uint8Array };
  create(value: object): object;
};

/** decode(reader, length) reads one embedded message from a reader positioned at its first byte. */
type EmbeddedClass = MessageClass & { decode(reader: protobuf.Reader | Uint8Array, length?: number): object };

type GeneratedRoot = {
  opentelemetry: {
    proto: {
      collector: { trace: { v1: Record<"ExportTraceServiceRequest" | "ExportTraceServiceResponse", MessageClass> } };
      trace: { v1: Record<"Span", EmbeddedClass> };
      resource: { v1: Record<"Resource", EmbeddedClass> };
    };
  };
};

const generated = require("@opentelemetry/otlp-transformer/build/src/generated/root.js") as GeneratedRoot;
export const { ExportTraceServiceRequest, ExportTraceServiceResponse } = generated.opentelemetry.proto.collector.trace.v1;
/** The messages an export is read one at a time by (./decode.ts). */
export const { Span } = generated.opentelemetry.proto.trace.v1;
export const { Resource } = generated.opentelemetry.proto.resource.v1;

/** google/rpc/status.proto: `int32 code = 1; string message = 2; repeated google.protobuf.Any details = 3;` (details never sent). */
export const RpcStatus = protobuf.Type.fromJSON("Status", {
  fields: { code: { type: "int32", id: 1 }, message: { type: "string", id: 2 } },
});
new protobuf.Root().define("google.rpc").add(RpcStatus);

/** How the request's objects are read: 64-bit numbers as decimal text, bytes as arrays, enums as numbers. */
export const READ_OPTIONS: protobuf.IConversionOptions = { longs: String, enums: Number, bytes: Array, defaults: false, arrays: true };
