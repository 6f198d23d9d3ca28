/**
 * Free TCP ports on the loopback, for a server a test must name before it starts (a spawned server, a SIWE domain
 * carrying the port). They are taken below the kernel's ephemeral range (32768–60999 on Linux): the ports the
 * kernel hands to `listen(0)` and to outgoing connections (PostgreSQL clients, HTTP clients) come from that range,
 * so a port found free there by a probe could be taken by a connection before the server listened on it (CI saw
 * EADDRINUSE that way). Each test worker (or process) draws from its own slice, in order, so two test files
 * running side by side never pick the same port; each port is still checked by binding it.
 */
import { once } from "node:events";
import { createServer } from "node:net";

const FIRST = 20_000;
const SLICE = 1_000;
const SLICES = 12;

const worker = Number(process.env.VITEST_POOL_ID ?? process.pid);
const base = FIRST + (worker % SLICES) * SLICE;
let next = Math.floor(Math.random() * SLICE);

/** A port no one listens on now, below the ephemeral range. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < SLICE; tries++) {
    const port = base + (next++ % SLICE);
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port in ${base}–${base + SLICE - 1}`);
}

/** `n` distinct free ports. */
export async function freePorts(n: number): Promise<number[]> {
  const ports: number[] = [];
  for (let i = 0; i < n; i++) ports.push(await freePort());
  return ports;
}

async function bindable(port: number): Promise<boolean> {
  const probe = createServer();
  probe.listen(port, "127.0.0.1");
  try {
    // once() rejects when the server emits "error" first (EADDRINUSE).
    await once(probe, "listening");
  } catch {
    return false;
  }
  await new Promise((resolve) => probe.close(resolve));
  return true;
}
