/**
 * What other capabilities may use of the users: the user record, the lookups and account links the sign-in use
 * cases need, and the display data (name, wallet) of many users at once. Creating a user with its welcome credits
 * is register-user.ts.
 */
export {
  findDisplayInfo,
  findOrCreateOidcUser,
  findPayoutAccounts,
  findUserById,
  findUserByOidc,
  findUserByReferralCode,
  findUserByWallet,
  findUserIdsByWallets,
  linkOidc,
  linkWallet,
  setPayoutAddress,
  type UserRow,
} from "./users.repository.js";
