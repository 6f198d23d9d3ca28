/**
 * `npm run gen:abi`: writes contracts/abi.ts, the TypeScript ABIs of the production contracts, from what solc
 * compiles contracts/ to (contracts/compile.ts). The server and the web app both import that one file, so no ABI is
 * kept by hand. contracts/abi.test.ts fails when the committed file differs from a fresh compilation.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Abi } from "viem";
import { compileContracts } from "../contracts/compile.js";

export const ABI_FILE = fileURLToPath(new URL("../contracts/abi.ts", import.meta.url));

/** The generated constants: contract name → export name. Test tokens and mocks stay out. */
export const GENERATED = { SpBetting: "spBettingAbi", PrizeDistributor: "prizeDistributorAbi" } as const;

/** solc's ABI without `internalType` (compiler detail, not interface). */
function clean(abi: Abi): unknown {
  return JSON.parse(JSON.stringify(abi), (key, value) => (key === "internalType" ? undefined : value));
}

export async function generatedAbis(): Promise<Record<string, unknown>> {
  const compiled = await compileContracts();
  return Object.fromEntries(
    Object.entries(GENERATED).map(([contract, name]) => [name, clean(compiled[contract]!.abi)]),
  );
}

async function main(): Promise<void> {
  const abis = await generatedAbis();
  const body = Object.entries(abis)
    .map(([name, abi]) => `export const ${name} = ${JSON.stringify(abi)} as const;\n`)
    .join("\n");
  writeFileSync(
    ABI_FILE,
    `/**\n * The ABIs of contracts/SpBetting.sol and contracts/PrizeDistributor.sol as solc compiles them.\n * Do not edit: run \`npm run gen:abi\` (scripts/gen-contract-abis.ts) after changing a contract.\n */\n\n${body}`,
  );
  execFileSync("npx", ["biome", "format", "--write", ABI_FILE], { stdio: "inherit" });
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) await main();
