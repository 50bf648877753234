// Setup for every test file (both vitest configs). Workers run file after file in one module
// graph (isolate: false), so what a file stubs in process.env with vi.stubEnv is put back when
// the file ends, after its own afterAll hooks, before the next file starts.
import { afterAll, vi } from "vitest";
import { TEST_FORGET_KEY } from "./forget-key";

// The servers' forget key, for the domain code the tests run in-process.
process.env.PROCTOR_FORGET_KEY = TEST_FORGET_KEY;

afterAll(() => {
  vi.unstubAllEnvs();
});
