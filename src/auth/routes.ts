/**
 * HTTP edge of sign-in: /api/auth/providers, /nonce, /wallet, /oidc, /session, /logout; and the payout address the
 * player proves the same way (/api/me/payout-address).
 */

/** `{address, verifiedAt}` as sent: the address checksummed. */
function presentPayoutAddress(p: PayoutAddress) {
  return {
    address: p.address ? getAddress(p.address) : null,
    verifiedAt: p.verifiedAt?.toISOString() ?? null,
  };
}

import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { getAddress } from "viem";
import { ok, okSchema } from "../http/envelope.js";
import { presentUser } from "../users/presenters.js";
import { getPayoutAddress, type PayoutAddress, setPayoutAddress } from "./payout-address.js";
import type { SignInProviders } from "./providers.js";
import {
  NonceResponse,
  OidcSignInBody,
  PayoutAddressBody,
  PayoutAddressResponse,
  ProvidersResponse,
  UserResponse,
  WalletSignInBody,
} from "./schema.js";
import { clearSessionCookie, requireUser, setSessionCookie } from "./session.js";
import {
  type AuthDeps,
  issueNonce,
  NONCE_COOKIE,
  NONCE_COOKIE_PATH,
  NONCE_TTL_MS,
  signInWithOidc,
  signInWithWallet,
  signOut,
} from "./sign-in.js";

export async function authRoutes(
  instance: FastifyInstance,
  opts: { auth: AuthDeps; providers: SignInProviders; secureCookie: boolean },
) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { auth, providers, secureCookie } = opts;

  app.get(
    "/api/auth/providers",
    {
      schema: {
        summary: "The sign-in methods this service offers (wallet chains, identity provider)",
        tags: ["auth"],
        response: { 200: okSchema(ProvidersResponse) },
      },
      config: { auth: "public" },
    },
    async () => ok(providers),
  );

  app.get(
    "/api/auth/nonce",
    {
      schema: {
        summary: "A single-use sign-in nonce (10 min), bound to this client by the siwe_nonce cookie",
        description:
          "128 random bits as 32 hex characters, and the domain the EIP-4361 message should name (the request's " +
          "host when it is accepted). The response also sets the HttpOnly `siwe_nonce` cookie (path /api): " +
          "POST /api/auth/wallet and PUT /api/me/payout-address accept the nonce only with that cookie, so a " +
          "client that does not keep cookies must send it back itself. Each call replaces the previous nonce's " +
          "cookie.",
        tags: ["auth"],
        response: { 200: okSchema(NonceResponse) },
      },
      config: { rateClass: "auth", auth: "public" },
    },
    async (request, reply) => {
      const { nonce, binding } = await issueNonce(auth);
      reply.setCookie(NONCE_COOKIE, binding, {
        path: NONCE_COOKIE_PATH,
        httpOnly: true,
        sameSite: "strict",
        secure: secureCookie,
        maxAge: NONCE_TTL_MS / 1000,
      });
      return ok({ nonce, domain: auth.origins.domainFor(request.headers.host) });
    },
  );

  app.post(
    "/api/auth/wallet",
    {
      schema: {
        summary: "Sign in with a wallet (EIP-4361 message and signature)",
        tags: ["auth"],
        body: WalletSignInBody,
        response: { 200: okSchema(UserResponse) },
      },
      config: { rateClass: "auth", auth: "session-optional", errors: ["UNAUTHENTICATED"] },
    },
    async (request, reply) => {
      const current = await request.session();
      const { user, token } = await signInWithWallet(
        auth,
        {
          message: request.body.message,
          signature: request.body.signature as `0x${string}`,
          referralCode: request.body.referralCode,
          nonceBinding: request.cookies[NONCE_COOKIE],
        },
        current ? { userId: current.user.id } : null,
      );
      setSessionCookie(reply, token, secureCookie);
      reply.clearCookie(NONCE_COOKIE, {
        path: NONCE_COOKIE_PATH,
        httpOnly: true,
        sameSite: "strict",
        secure: secureCookie,
      });
      return ok({ user: presentUser(user) });
    },
  );

  app.post(
    "/api/auth/oidc",
    {
      schema: {
        summary: "Sign in with an OIDC ID token",
        tags: ["auth"],
        body: OidcSignInBody,
        response: { 200: okSchema(UserResponse) },
      },
      config: { rateClass: "auth", auth: "session-optional", errors: ["UNAUTHENTICATED", "NOT_FOUND"] },
    },
    async (request, reply) => {
      const current = await request.session();
      const { user, token } = await signInWithOidc(
        auth,
        request.body,
        current ? { userId: current.user.id } : null,
      );
      setSessionCookie(reply, token, secureCookie);
      return ok({ user: presentUser(user) });
    },
  );

  app.get(
    "/api/auth/session",
    {
      schema: { summary: "The signed-in user", tags: ["auth"], response: { 200: okSchema(UserResponse) } },
      config: { auth: "session" },
    },
    async (request) => ok({ user: presentUser((await requireUser(request)).user) }),
  );

  app.post(
    "/api/auth/logout",
    {
      schema: { summary: "Sign out", tags: ["auth"], response: { 200: okSchema(Type.Object({})) } },
      config: { auth: "session-optional" },
    },
    async (request, reply) => {
      const s = await request.session();
      if (s) await signOut(auth, s.sessionId);
      clearSessionCookie(reply, secureCookie);
      return ok({});
    },
  );

  app.get(
    "/api/me/payout-address",
    {
      schema: {
        summary: "Where my USDC prizes go",
        description:
          "The payout address I proved, with when; without one, my sign-in wallet and `verifiedAt` null (an " +
          "identity-only player without one: `address` null).",
        tags: ["auth"],
        response: { 200: okSchema(PayoutAddressResponse) },
      },
      config: { auth: "session" },
    },
    async (request) => {
      const { user } = await requireUser(request);
      return ok(presentPayoutAddress(await getPayoutAddress(auth, user.id)));
    },
  );

  app.put(
    "/api/me/payout-address",
    {
      schema: {
        summary: "Set where my USDC prizes go: an EIP-4361 message signed by that address",
        description:
          "The message is checked as a wallet sign-in's (domain, chain id, time, a fresh nonce of GET " +
          "/api/auth/nonce with its `siwe_nonce` cookie) and must be signed by the address it names. Prize trees " +
          "of weeks finalized from then on pay it. 409 CONFLICT when it is another account's wallet or payout " +
          "address.",
        tags: ["auth"],
        body: PayoutAddressBody,
        response: { 200: okSchema(PayoutAddressResponse) },
      },
      config: { rateClass: "write", auth: "session", errors: ["UNAUTHENTICATED", "CONFLICT"] },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const set = await setPayoutAddress(auth, {
        userId: user.id,
        message: request.body.message,
        signature: request.body.signature as `0x${string}`,
        nonceBinding: request.cookies[NONCE_COOKIE],
      });
      reply.clearCookie(NONCE_COOKIE, {
        path: NONCE_COOKIE_PATH,
        httpOnly: true,
        sameSite: "strict",
        secure: secureCookie,
      });
      return ok(presentPayoutAddress(set));
    },
  );
}
