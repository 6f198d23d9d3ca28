import { once } from "node:events";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { freePort, freePorts } from "./free-port.js";

describe("freePort", () => {
  it("gives distinct ports below the kernel's ephemeral range, each one a server can listen on", async () => {
    const ports = await freePorts(5);
    expect(new Set(ports).size).toBe(5);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(32_000);
      const server = createServer().listen(port, "127.0.0.1");
      await once(server, "listening");
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("passes over ports in use", async () => {
    // The ports come in order from the worker's slice: the two after `first` are the next candidates.
    const first = await freePort();
    const blocked = [first + 1, first + 2];
    const holders = blocked.map((port) => createServer().listen(port, "127.0.0.1"));
    await Promise.all(holders.map((h) => once(h, "listening")));
    try {
      const port = await freePort();
      expect(blocked).not.toContain(port);
      const server = createServer().listen(port, "127.0.0.1");
      await once(server, "listening");
      await new Promise((resolve) => server.close(resolve));
    } finally {
      await Promise.all(holders.map((h) => new Promise((resolve) => h.close(resolve))));
    }
  });
});
