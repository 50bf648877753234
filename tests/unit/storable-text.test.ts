import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { findUnstorableText, MAX_JSON_DEPTH } from "@/lib/db/storable-text";

/** `value` with `bad` put at the end of `keys` (creating objects on the way), and that path. */
function plant(value: unknown, keys: string[], bad: unknown): { value: unknown; path: string } {
  const root: Record<string, unknown> = { clean: value };
  let node = root;
  for (const k of keys.slice(0, -1)) node = (node[k] = {}) as Record<string, unknown>;
  node[keys.at(-1)!] = bad;
  return { value: root, path: keys.map((k) => `/${k}`).join("") };
}

const cleanJson = fc.jsonValue({ maxDepth: 4 }).filter((v) => findUnstorableText(v) === null);
const key = fc.string({ unit: fc.constantFrom("a", "b", "1", "é"), minLength: 1, maxLength: 3 }).filter((k) => k !== "clean");

describe("findUnstorableText", () => {
  it("accepts clean JSON and names the path of the one value PostgreSQL would refuse", () => {
    fc.assert(
      fc.property(cleanJson, fc.array(key, { minLength: 1, maxLength: 6 }), fc.constantFrom("a\u0000b", "x\uD800"), (clean, keys, bad) => {
        const planted = plant(clean, keys, [1, bad]);
        const found = findUnstorableText(planted.value, "/body");
        expect(found?.path).toBe(`/body${planted.path}/1`);
        expect(found?.message).toMatch(/NUL|surrogate/);
      }),
    );
  });

  it("names a refused key, too deep a nesting, and skips text when told it is clean", () => {
    expect(findUnstorableText({ a: [{ "k\u0000": 1 }] })).toEqual({ path: "/a/0/k\u0000", message: "key contains a NUL character" });
    let deep: unknown = 1;
    for (let i = 0; i <= MAX_JSON_DEPTH; i++) deep = [deep];
    expect(findUnstorableText({ d: deep }, "", 0, false)?.message).toBe(`nesting deeper than ${MAX_JSON_DEPTH} levels`);
    expect(findUnstorableText({ s: "a\u0000" }, "", 0, false)).toBeNull();
    expect(findUnstorableText("a\u0000")).toEqual({ path: "/", message: "contains a NUL character" });
  });
});
