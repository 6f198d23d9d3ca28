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
    { schema: { tags: ["auth"], response: { 200: okSchema(ProvidersResponse) } } },
    async () => ok(providers),
  );

  app.get(
    "/api/auth/nonce",
    { schema: { tags: ["auth"], response: { 200: okSchema(NonceResponse) } }, config: { rateClass: "auth" } },
    async () => ok({ nonce: (await issueNonce(auth)).nonce }),
  );

  app.post(
    "/api/auth/wallet",
    {
      schema: { tags: ["auth"], body: WalletSignInBody, response: { 200: okSchema(UserResponse) } },
      config: { rateClass: "auth" },
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
      schema: { tags: ["auth"], body: OidcSignInBody, response: { 200: okSchema(UserResponse) } },
      config: { rateClass: "auth" },
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
    { schema: { tags: ["auth"], response: { 200: okSchema(UserResponse) } } },
    async (request) => ok({ user: presentUser((await requireUser(request)).user) }),
  );

  app.post(
    "/api/auth/logout",
    { schema: { tags: ["auth"], response: { 200: okSchema(Type.Object({})) } } },
    async (request, reply) => {
      const s = await request.session();
      if (s) await signOut(auth, s.sessionId);
      clearSessionCookie(reply, secureCookie);
      return ok({});
    },
  );
}
