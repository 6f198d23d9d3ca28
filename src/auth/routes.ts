/** HTTP edge of sign-in: /api/auth/providers, /nonce, /wallet, /oidc, /session, /logout. */
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { ok, okSchema } from "../http/envelope.js";
import { clearSessionCookie, requireUser, setSessionCookie } from "../http/session.js";
import { presentUser } from "../users/presenters.js";
import type { SignInProviders } from "./providers.js";
import {
  NonceResponse,
  OidcSignInBody,
  ProvidersResponse,
  UserResponse,
  WalletSignInBody,
} from "./schema.js";
import { type AuthDeps, issueNonce, signInWithOidc, signInWithWallet, signOut } from "./sign-in.js";

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
        summary: "A single-use sign-in nonce (10 min) and the domain to sign for",
        tags: ["auth"],
        response: { 200: okSchema(NonceResponse) },
      },
      config: { rateClass: "auth", auth: "public" },
    },
    async (request) =>
      ok({ nonce: (await issueNonce(auth)).nonce, domain: auth.origins.domainFor(request.headers.host) }),
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
        },
        current ? { userId: current.user.id } : null,
      );
      setSessionCookie(reply, token, secureCookie);
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
}
