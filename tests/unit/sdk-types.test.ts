// The SDK's committed types (packages/sdk/src/openapi.ts) are what openapi-typescript makes of
// the current OpenAPI document: a contract change without `npm run sdk:types` fails here.
import { expect, it } from "vitest";
import { committedSdkTypes, generateSdkTypes } from "@/scripts/sdk/types";

it("the SDK's types are generated from the current agent API contract", async () => {
  expect(committedSdkTypes() === (await generateSdkTypes()), "packages/sdk/src/openapi.ts is stale: run `npm run sdk:types`").toBe(true);
});
