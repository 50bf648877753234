// Every state change of an account as a whole, by name; each takes (db, input, by).
export { forgetAccount, type ForgetAccountInput, type ForgetAccountReport } from "./forget-account";
