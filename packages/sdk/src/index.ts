/**
 * @sp/sdk: the typed client of the SP prediction platform API (README.md beside this folder shows the whole flow).
 * `createSpClient` makes an openapi-fetch client typed by the service's OpenAPI document; `ok` unwraps a success
 * envelope or throws `SpApiError`; `signInWithWallet` / `signInWithOidc` open a session the client then carries.
 */
export {
  type components,
  createSpClient,
  type ErrorCode,
  type ErrorEnvelope,
  ok,
  type paths,
  type SessionStore,
  SpApiError,
  type SpClient,
  type SpClientOptions,
  sessionFromSetCookie,
} from "./client.js";
export {
  signInWithOidc,
  signInWithWallet,
  signOut,
  type WalletSigner,
  type WalletSignInOptions,
} from "./sign-in.js";
export type * from "./types.js";
