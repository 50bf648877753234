// Every state change of console accounts and agents' API keys, by name. Each takes
// (db, input, by): a typed input object and the audit context of who acts; its audit row
// commits with the change. (Bootstrap at first start, lib/auth/bootstrap.ts, is not an
// operation: no one acts, it runs once before the server answers.)
export { changeOwnPassword, type ChangeOwnPasswordInput } from "./change-own-password";
export { createApiKey, type CreateApiKeyInput } from "./create-api-key";
export { createUser, type CreateUserInput } from "./create-user";
export { resetPassword, type ResetPasswordInput } from "./reset-password";
export { revokeApiKey, type RevokeApiKeyInput } from "./revoke-api-key";
export { rotateApiKey, type RotateApiKeyInput } from "./rotate-api-key";
export { signOutEverywhere, type SignOutEverywhereInput } from "./sign-out-everywhere";
export { signOutOwnSessions } from "./sign-out-own-sessions";
export { updateUser, type UpdateUserInput } from "./update-user";
