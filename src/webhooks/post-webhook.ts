/**
 * One webhook POST: the body and headers as given, redirects not followed (a 3xx is a failed attempt: a redirect
 * could lead anywhere), the response body read and dropped (at most 64 KiB), and the whole exchange bounded by
 * `timeoutMs` (SPEC §11: a 2xx within 15 s is success). Under the public-only policy the connection goes only to
 * addresses `guardedLookup` accepted.
 */
import http from "node:http";
import https from "node:https";
import { guardedLookup, webhookUrlFormProblem } from "./url-guard.js";

export type PostOutcome = { ok: true; status: number } | { ok: false; status: number | null; error: string };

const MAX_RESPONSE_BYTES = 64 * 1024;

export function postWebhook(
  rawUrl: string,
  headers: Record<string, string>,
  body: string,
  opts: { timeoutMs: number; requirePublicHttps: boolean },
): Promise<PostOutcome> {
  const problem = webhookUrlFormProblem(rawUrl, opts.requirePublicHttps);
  if (problem) return Promise.resolve({ ok: false, status: null, error: `URL ${problem}` });
  const url = new URL(rawUrl);
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = client.request(
      url,
      {
        method: "POST",
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
          "user-agent": "sp-competition-webhooks/1",
        },
        agent: false,
        ...(opts.requirePublicHttps ? { lookup: guardedLookup } : {}),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let received = 0;
        res.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) res.destroy();
        });
        const done = () =>
          finish(
            status >= 200 && status < 300
              ? { ok: true, status }
              : { ok: false, status, error: `answered ${status}` },
          );
        res.on("end", done);
        res.on("close", done);
        res.on("error", done);
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`));
    }, opts.timeoutMs);
    req.on("error", (err) => finish({ ok: false, status: null, error: err.message }));
    req.end(body);
  });
}
