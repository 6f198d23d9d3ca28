/** The contracts' compiler moved to src/demo/compile-contracts.ts (`npm run demo` deploys them too). */
export { type CompiledContract, compileContracts } from "../../src/demo/compile-contracts.js";
