// What one OTLP export may hold (README "OpenTelemetry ingestion", SECURITY.md). Chosen so that
// the largest accepted export, decoded, staged and answered, stays well inside the web process's
// heap (`npm start` runs node with --max-old-space-size=384): README "OpenTelemetry ingestion"
// gives the measured peaks. An export beyond the decoded size or the span count is refused whole (413)
// before its spans are read; a span beyond the per-span limits is refused alone (partialSuccess).

/** Bytes of an export after gzip is undone (the sent body's own limit is 8 MiB). */
export const OTLP_DECODED_BYTES = 16 * 1024 * 1024;
/** Spans in one export (OpenTelemetry SDKs send 512 at most by default, the Collector 8,192). */
export const MAX_SPANS_PER_EXPORT = 10_000;
/**
 * Attributes of one span or span event, or entries of one map (OpenInference flattens each message
 * of a conversation into attributes of its own, so a long one holds hundreds).
 */
export const MAX_ATTRIBUTES_PER_SPAN = 1000;
/**
 * Attributes (and map entries) of a whole export: what its size in memory grows with; protobuf
 * packs a small attribute in ten bytes, so the decoded size alone would let 16 MiB hold 1.6 million.
 */
export const MAX_ATTRIBUTES_PER_EXPORT = 250_000;
/** Events of one span (the SDKs' default EventCountLimit). */
export const MAX_EVENTS_PER_SPAN = 128;
/** UTF-8 bytes of one attribute value (a string, or the whole of an array or map). */
export const MAX_ATTRIBUTE_VALUE_BYTES = 2 * 1024 * 1024;
/** Tools OTLP auto-declaration adds to one agent's toolbox, in all (an admin declares more). */
export const MAX_AUTO_TOOLS_PER_AGENT = 200;
