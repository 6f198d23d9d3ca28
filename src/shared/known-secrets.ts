/**
 * Keys and secrets the whole world knows, refused in production (SPEC §10): a service signing odds or payouts
 * with such a key, or guarding its admin API with such a token, is open to anyone.
 *
 * Contract:
 * - `publicKeyProblem(key)`: why a secp256k1 private key (0x + 64 hex digits) is publicly known, or null:
 *   one of the first 1,000 accounts (m/44'/60'/0'/0/i) of the development mnemonics of Hardhat / Anvil / Foundry
 *   ("test test … junk") and of `ganache --deterministic`; a key below 2^128 (hand-typed keys such as 0x…01);
 *   a key of fewer than 16 distinct bytes (patterns such as 0x0d0d…0d: a random key has about 30); a key written in
 *   this repository.
 * - `writtenInRepository(value)`: the first file of the project (the folder this service runs from, its own
 *   dependencies, builds, data and local `.env` files left out) that contains `value` verbatim, or null. Tests,
 *   docs and examples are public, and so is every value in them.
 * - Both are computed on first use and kept (the key derivation takes about a second): only production asks.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { mnemonicToSeedSync } from "@scure/bip39";
import { toHex } from "viem";
import { HDKey } from "viem/accounts";

export const DEVELOPMENT_MNEMONICS = [
  "test test test test test test test test test test test junk",
  "myth like bonus scare over problem client lizard pioneer submit female collect",
] as const;
/** Accounts per development mnemonic taken as known: tools hand out 10 or 20; scripts ask for hundreds. */
export const DERIVED_ACCOUNTS = 1000;

let derived: Set<string> | null = null;

/** The development mnemonics' first DERIVED_ACCOUNTS private keys, lower-case 0x hex. */
export function developmentKeys(): Set<string> {
  if (!derived) {
    derived = new Set();
    for (const mnemonic of DEVELOPMENT_MNEMONICS) {
      const parent = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic)).derive("m/44'/60'/0'/0");
      for (let i = 0; i < DERIVED_ACCOUNTS; i++) derived.add(toHex(parent.deriveChild(i).privateKey!));
    }
  }
  return derived;
}

export function publicKeyProblem(key: string): string | null {
  const lower = key.toLowerCase();
  const value = BigInt(lower);
  if (value < 2n ** 128n) return "is a publicly known key (below 2^128: a hand-typed or test key)";
  if (new Set(lower.slice(2).match(/../g)).size < 16) {
    return "is a publicly known key (a repeated pattern, not a random key)";
  }
  if (developmentKeys().has(lower)) return "is a publicly known key (an account of a development mnemonic)";
  const file = writtenInRepository(lower) ?? writtenInRepository(lower.slice(2));
  return file ? `is a publicly known key (written in this repository: ${file})` : null;
}

const projectRoot = fileURLToPath(new URL("../../", import.meta.url));
/** Not the project's own text: dependencies, builds, data, VCS internals, local environments. */
const SKIPPED_DIRS = new Set(["node_modules", ".git", "data", "dist", "test-artifacts", ".cache"]);
const SKIPPED_EXTENSIONS = /\.(png|jpe?g|gif|webp|ico|woff2?|svg|pdf)$/i;
const MAX_FILE_BYTES = 4 * 1024 * 1024;

let files: Array<{ path: string; text: string }> | null = null;

function projectFiles(dir = projectRoot, found: Array<{ path: string; text: string }> = []) {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) projectFiles(path, found);
      continue;
    }
    // A local .env holds this deployment's own secrets; .env.example is the project's (public) text.
    if (!entry.isFile() || (entry.name.startsWith(".env") && entry.name !== ".env.example")) continue;
    if (SKIPPED_EXTENSIONS.test(entry.name) || statSync(path).size > MAX_FILE_BYTES) continue;
    found.push({ path: relative(projectRoot, path), text: readFileSync(path, "latin1").toLowerCase() });
  }
  return found;
}

export function writtenInRepository(value: string): string | null {
  files ??= projectFiles();
  const needle = value.toLowerCase();
  return files.find((f) => f.text.includes(needle))?.path ?? null;
}
