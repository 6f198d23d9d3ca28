/**
 * Compiles the Solidity sources in contracts/ with the solc npm package (offline: the compiler is bundled), for
 * the chain tests and `npm run demo` to deploy (solc is a development dependency: the production server never
 * imports this file). Imports of `@openzeppelin/contracts/...` are read from node_modules (the installed
 * version). The output is cached under node_modules/.cache keyed by the sources, the OpenZeppelin version and the
 * compiler version, so only the first test file of a fresh checkout pays for loading the compiler.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { Abi, Hex } from "viem";

export interface CompiledContract {
  abi: Abi;
  bytecode: Hex;
}

/**
 * Cancun: what Ethereum and the L2s run, and the oldest target OpenZeppelin 5.7 compiles for (its Bytes library,
 * reached through EIP712 → MessageHashUtils → Strings, uses MCOPY). Ganache 7.9 implements Shanghai; every path the
 * tests take (deployment, placeBet, collectFees, the views they call) uses no Cancun opcode, and a path that did
 * would fail loudly on ganache. The one known exception is `eip712Domain()` (ERC-5267), which copies its strings
 * with MCOPY: the tests never call it.
 */
const EVM_VERSION = "cancun";

const contractsDir = fileURLToPath(new URL("../../contracts/", import.meta.url));
const cacheDir = fileURLToPath(new URL("../../node_modules/.cache/sp-contracts/", import.meta.url));
const require = createRequire(import.meta.url);

let compiled: Promise<Record<string, CompiledContract>> | null = null;

/** Every contract of contracts/*.sol by name, compiled once per process (and cached on disk across runs). */
export function compileContracts(): Promise<Record<string, CompiledContract>> {
  compiled ??= compile();
  return compiled;
}

/** solc's import callback: only OpenZeppelin's installed sources, nothing else from the file system. */
function findImport(path: string): { contents: string } | { error: string } {
  if (!/^@openzeppelin\/contracts\/[A-Za-z0-9_/.-]+\.sol$/.test(path) || path.includes("..")) {
    return { error: `import ${path} is not an @openzeppelin/contracts source` };
  }
  try {
    return { contents: readFileSync(require.resolve(path), "utf8") };
  } catch {
    return { error: `import ${path} not found in node_modules` };
  }
}

async function compile(): Promise<Record<string, CompiledContract>> {
  const sources: Record<string, { content: string }> = {};
  for (const file of readdirSync(contractsDir)
    .filter((f) => f.endsWith(".sol"))
    .sort()) {
    sources[file] = { content: readFileSync(`${contractsDir}${file}`, "utf8") };
  }
  const solcVersion = (require("solc/package.json") as { version: string }).version;
  const ozVersion = (require("@openzeppelin/contracts/package.json") as { version: string }).version;
  const key = createHash("sha256")
    .update(JSON.stringify({ sources, solcVersion, ozVersion, EVM_VERSION }))
    .digest("hex")
    .slice(0, 16);
  const cacheFile = `${cacheDir}${key}.json`;
  try {
    return JSON.parse(readFileSync(cacheFile, "utf8"));
  } catch {
    // not cached yet
  }
  const solc = (await import("solc")).default;
  const input = {
    language: "Solidity",
    sources,
    settings: {
      evmVersion: EVM_VERSION,
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport }));
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === "error");
  if (errors.length > 0) {
    throw new Error(
      `solc: ${errors.map((e: { formattedMessage: string }) => e.formattedMessage).join("\n")}`,
    );
  }
  const result: Record<string, CompiledContract> = {};
  // Only the contracts of contracts/, not the libraries they import.
  for (const file of Object.keys(sources)) {
    const contracts: Record<string, { abi: Abi; evm: { bytecode: { object: string } } }> =
      output.contracts[file];
    for (const [name, c] of Object.entries(contracts)) {
      if (c.evm.bytecode.object) result[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
    }
  }
  mkdirSync(cacheDir, { recursive: true });
  // Written aside, then renamed: test files compiling side by side never read half a file.
  const partial = `${cacheFile}.${process.pid}`;
  writeFileSync(partial, JSON.stringify(result));
  renameSync(partial, cacheFile);
  return result;
}
