/**
 * A TCP proxy for fault drills: forwards 127.0.0.1:<port> to a target until `stall()`, after which it forwards
 * nothing (bytes already sent wait, new connections are accepted and left silent), as a server under SIGSTOP
 * behaves; `resume()` forwards again, and drops the connections opened while stalled (the server never saw them).
 * `reset()` cuts every open connection with a TCP RST on both sides (ECONNRESET, as a failover or a NAT timeout
 * does); new connections are forwarded as before. `dropSilently()` stops forwarding on every open connection for
 * good, with no RST and no FIN (a NAT or firewall that forgot them: the peer only notices by its own timeout); new
 * connections are forwarded as before.
 */
import { createConnection, createServer, type Server, type Socket } from "node:net";

export interface TcpProxy {
  port: number;
  stall(): void;
  resume(): void;
  reset(): void;
  dropSilently(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let stalled = false;
  const pairs = new Set<[Socket, Socket | null]>();
  const server: Server = createServer((client) => {
    client.on("error", () => {});
    if (stalled) {
      const pair: [Socket, Socket | null] = [client, null];
      pairs.add(pair);
      client.pause();
      client.on("close", () => pairs.delete(pair));
      return;
    }
    const upstream = createConnection(target);
    upstream.on("error", () => client.destroy());
    const pair: [Socket, Socket | null] = [client, upstream];
    pairs.add(pair);
    client.on("data", (d) => {
      if (!upstream.write(d)) client.pause();
    });
    upstream.on("data", (d) => {
      if (!client.write(d)) upstream.pause();
    });
    client.on("drain", () => !stalled && upstream.resume());
    upstream.on("drain", () => !stalled && client.resume());
    client.on("close", () => {
      upstream.destroy();
      pairs.delete(pair);
    });
    upstream.on("close", () => client.destroy());
    if (stalled) {
      client.pause();
      upstream.pause();
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.address() as { port: number }).port,
    stall() {
      stalled = true;
      for (const [a, b] of pairs) {
        a.pause();
        b?.pause();
      }
    },
    resume() {
      stalled = false;
      for (const pair of pairs) {
        const [a, b] = pair;
        if (b === null) a.destroy();
        else {
          a.resume();
          b.resume();
        }
      }
    },
    reset() {
      for (const [a, b] of pairs) {
        a.resetAndDestroy();
        b?.resetAndDestroy();
      }
      pairs.clear();
    },
    dropSilently() {
      for (const [a, b] of pairs) {
        for (const s of [a, b]) {
          s?.removeAllListeners("data");
          s?.removeAllListeners("drain");
          s?.pause();
        }
      }
    },
    async close() {
      for (const [a, b] of pairs) {
        a.destroy();
        b?.destroy();
      }
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/**
 * A proxy in front of the server a URL names (postgres://…, redis://…; `defaultPort` when the URL has none), and
 * the same URL pointing at the proxy instead. The caller closes the proxy.
 */
export async function proxyTo(url: string, defaultPort: number): Promise<{ proxy: TcpProxy; url: string }> {
  const target = new URL(url);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || defaultPort) });
  const proxied = new URL(url);
  proxied.host = `127.0.0.1:${proxy.port}`;
  return { proxy, url: proxied.toString() };
}
