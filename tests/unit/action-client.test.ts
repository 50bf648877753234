// The browser side of a server action: a refusal becomes an Error with the server's message
// and the fields it names, so a toast can show it as it is.
import { describe, expect, it } from "vitest";
import { ActionFailure, unwrap } from "@/lib/actions/client";

describe("unwrap", () => {
  it("returns the data of a success", async () => {
    expect(await unwrap(Promise.resolve({ ok: true as const, data: { id: "k1" } }))).toEqual({ id: "k1" });
  });

  it("throws the server's message with the fields it names", async () => {
    const refused = unwrap(Promise.resolve({ ok: false as const, error: { kind: "validation_error" as const, message: "The input is invalid.", fields: [{ path: "/name", message: "a name is required" }] } }));
    await expect(refused).rejects.toBeInstanceOf(ActionFailure);
    await expect(refused).rejects.toThrow("The input is invalid. — /name: a name is required");
  });

  it("says the server could not be reached when the call itself fails", async () => {
    await expect(unwrap(Promise.reject(new TypeError("fetch failed")))).rejects.toMatchObject({ error: { kind: "unavailable" } });
  });
});
