/**
 * The JSON-RPC client of the configured chain (viem over HTTP). Never caches: confirmations are counted from a
 * fresh head. Bounded: one retry and 10 s per request, so an unreachable node delays a bet report only briefly
 * (the bet then stays pending and the background re-check asks again).
 */
import { createPublicClient, http, type PublicClient } from "viem";

export function createChainClient(rpcUrl: string): PublicClient {
  return createPublicClient({ transport: http(rpcUrl, { timeout: 10_000, retryCount: 1 }), cacheTime: 0 });
}
