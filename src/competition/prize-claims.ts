/**
 * What the chain indexer may use of the prize distribution: record the PrizeClaimed logs it read (idempotent on
 * chain id, tx hash, log index) and delete those of blocks a reorganisation took away.
 */
export {
  deletePrizeClaimsAbove as removePrizeClaimsAbove,
  insertPrizeClaims as recordPrizeClaims,
  type PrizeClaimRecord,
} from "./prize-tree.repository.js";
