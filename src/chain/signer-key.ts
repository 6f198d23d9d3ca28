/**
 * Checks of the odds signer's private key (ODDS_SIGNER_PRIVATE_KEY), for the configuration.
 *
 * Contract:
 * - A key is 32 bytes written as 0x + 64 hex digits, a valid secp256k1 scalar (0 < key < n).
 * - In production, a publicly known key is refused: the first ten accounts of the development mnemonics of
 *   Hardhat / Anvil / Foundry ("test test … junk") and of `ganache --deterministic`, and any key below 2^128
 *   (the shape of hand-typed or test keys such as 0x…01; a random key is that small with probability 2^-128).
 * - Pure: no I/O.
 */

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** Private keys anyone can find: derived from public development mnemonics (a test re-derives them). */
export const WELL_KNOWN_KEYS: readonly string[] = [
  // "test test test test test test test test test test test junk", m/44'/60'/0'/0/0..9
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
  "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
  "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba",
  "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e",
  "0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356",
  "0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97",
  "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6",
  // "myth like bonus scare over problem client lizard pioneer submit female collect" (ganache --deterministic)
  "0x4f3edf983ac636a65a842ce7c78d9aa706d3b113bce9c46f30d7d21715b23b1d",
  "0x6cbed15c793ce57650b9877cf6fa156fbef513c4e6134f022a85b1ffdd59b2a1",
  "0x6370fd033278c143179d81c5526140625662b8daa446c22ee2d73db3707e620c",
  "0x646f1ce2fdad0e6deeeb5c7e8e5543bdde65e86029e2fd9fc169899c440a7913",
  "0xadd53f9a7e588d003326d1cbf9e4a43c061aadd9bc938c843a79e7b4fd2ad743",
  "0x395df67f0c2d2d9fe1ad08d1bc8b6627011959b79c53d7dd6a3536a33ab8a4fd",
  "0xe485d098507f54e7733a205420dfddbe58db035fa577fc294ebd14db90767a52",
  "0xa453611d9419d0e56f499079478fd72c37b251a94bfde4d19872c44cf65386e3",
  "0x829e924fdf021ba3dbbc4225edfece9aca04b929d6e75613329ca6f1d31c0bb4",
  "0xb0057716d5917badaf911b193b12b910811c1497b5bada8d7711f758981c3773",
];

/** Why `raw` cannot be the odds signer's key (without echoing it), or null when it can. */
export function signerKeyProblem(raw: string, production: boolean): string | null {
  if (!/^0x[0-9a-fA-F]{64}$/.test(raw)) return "must be a private key: 0x followed by 64 hex digits";
  const key = BigInt(raw);
  if (key === 0n || key >= SECP256K1_N) return "is not a valid secp256k1 private key";
  if (production && (key < 2n ** 128n || WELL_KNOWN_KEYS.includes(raw.toLowerCase()))) {
    return "is a publicly known development key, refused in production";
  }
  return null;
}
