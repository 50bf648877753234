// Request body limits of the agent API (api.md Conventions).
export const SINGLE_BODY_BYTES = 1024 * 1024;
export const BATCH_BODY_BYTES = 8 * 1024 * 1024;
