/**
 * A minimal Server-Sent Events client for tests and the stream benchmark: one plain HTTP GET (no agent pooling),
 * the `text/event-stream` parsed into events (`event`, `id`, JSON `data`) and comments, and waits for an event
 * matching a predicate, bounded in time.
 */
import http from "node:http";

export interface SseEvent {
  event: string;
  id: string | null;
  data: any;
}

export interface SseClient {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The whole body when the answer is not a stream (an error envelope), parsed as JSON. */
  body(): Promise<any>;
  events: SseEvent[];
  comments: string[];
  /** The first event (already received or to come) matching `match`; rejects after `timeoutMs`. */
  next(match: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  /** Calls `listener` on each event as it arrives. */
  onEvent(listener: (e: SseEvent) => void): void;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export function openStream(
  base: string,
  opts: { cookie?: string; lastEventId?: string; headers?: Record<string, string>; path?: string } = {},
): Promise<SseClient> {
  const headers: Record<string, string> = { accept: "text/event-stream", ...opts.headers };
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.lastEventId !== undefined) headers["last-event-id"] = opts.lastEventId;
  return new Promise((resolve, reject) => {
    const req = http.get(new URL(opts.path ?? "/api/stream", base), { headers, agent: false }, (res) => {
      const events: SseEvent[] = [];
      const comments: string[] = [];
      const listeners: Array<(e: SseEvent) => void> = [];
      let buffer = "";
      let raw = "";
      res.setEncoding("utf8");
      const ended = new Promise<void>((r) => {
        res.on("end", () => r());
        res.on("close", () => r());
        res.on("error", () => r());
      });
      res.on("data", (chunk: string) => {
        raw += res.statusCode === 200 ? "" : chunk;
        buffer += chunk;
        let cut = buffer.indexOf("\n\n");
        while (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          cut = buffer.indexOf("\n\n");
          let event = "message";
          let id: string | null = null;
          const data: string[] = [];
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) comments.push(line.slice(1).trim());
            else if (line.startsWith("event: ")) event = line.slice(7);
            else if (line.startsWith("id: ")) id = line.slice(4);
            else if (line.startsWith("data: ")) data.push(line.slice(6));
          }
          if (data.length === 0) continue;
          const e = { event, id, data: JSON.parse(data.join("\n")) };
          events.push(e);
          for (const l of listeners) l(e);
        }
      });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        body: async () => {
          await ended;
          return JSON.parse(raw);
        },
        events,
        comments,
        ended,
        onEvent: (l) => listeners.push(l),
        next: (match, timeoutMs = 3000) => {
          const found = events.find(match);
          if (found) return Promise.resolve(found);
          return new Promise((ok, fail) => {
            const timer = setTimeout(
              () =>
                fail(
                  new Error(
                    `no matching event within ${timeoutMs} ms; received ${JSON.stringify(events.map((x) => [x.event, x.data]))}`,
                  ),
                ),
              timeoutMs,
            );
            listeners.push((e) => {
              if (match(e)) {
                clearTimeout(timer);
                ok(e);
              }
            });
          });
        },
        close: () => {
          req.destroy();
          res.destroy();
        },
      });
    });
    req.on("error", reject);
  });
}
