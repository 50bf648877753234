// The forget key (lib/accounts/forget-key.ts) every test server, worker and test process shares, so
// a test that calls the domain in-process recognises the marks a server wrote.
export const TEST_FORGET_KEY = "test-forget-key-kept-out-of-the-database";
