// next-auth configuration: Credentials with scrypt hashes, JWT sessions of 8 hours that carry
// the id of their row (./sessions.ts), optional OIDC from the environment. OIDC
// never creates accounts: it signs in an existing, active console user whose email the identity
// provider reports (verified), with that user's role; admins add such users in Settings → Users.
import type { NextAuthOptions } from "next-auth";
import type { Provider } from "next-auth/providers/index";
import CredentialsProvider from "next-auth/providers/credentials";
import { db } from "../db/client";
import { secureCookies } from "./cookies";
import { passwordSignIn } from "./password";
import { endSession, SESSION_MAX_AGE_SECONDS, startSession } from "./sessions";
import { findActiveUserByEmail } from "./users";
import { trimEdges } from "../text/trim-edges";
import { redirectWithinSite, withoutDatabaseDetail } from "./callback-guards";
export const OIDC_PROVIDER_ID = "oidc";

export type OidcConfig = { issuer: string; clientId: string; clientSecret: string; name: string };

export function oidcConfig(env: NodeJS.ProcessEnv = process.env): OidcConfig | null {
  const issuer = env.PROCTOR_OIDC_ISSUER?.trim();
  const clientId = env.PROCTOR_OIDC_CLIENT_ID?.trim();
  const clientSecret = env.PROCTOR_OIDC_CLIENT_SECRET?.trim();
  if (!issuer || !clientId || !clientSecret) return null;
  return { issuer: trimEdges(issuer, /\//, "end"), clientId, clientSecret, name: env.PROCTOR_OIDC_NAME?.trim() || "single sign-on" };
}

type OidcProfile = { sub: string; email?: string; email_verified?: boolean; name?: string };

function oidcProvider(c: OidcConfig): Provider {
  return {
    id: OIDC_PROVIDER_ID,
    name: c.name,
    type: "oauth",
    wellKnown: `${c.issuer}/.well-known/openid-configuration`,
    clientId: c.clientId,
    clientSecret: c.clientSecret,
    authorization: { params: { scope: "openid email profile" } },
    idToken: true,
    checks: ["pkce", "state"],
    profile: (p: OidcProfile) => ({ id: p.sub, email: p.email ?? null, name: p.name ?? p.email ?? null, emailVerified: p.email_verified }),
  } as Provider;
}

const credentials = CredentialsProvider({
  name: "Email and password",
  credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
  authorize: withoutDatabaseDetail(async (credentials) => {
    const email = String(credentials?.email ?? "").trim().toLowerCase();
    const password = String(credentials?.password ?? "");
    if (!email || !password) return null;
    const user = await passwordSignIn(await db().user.findUnique({ where: { email } }), password);
    if (!user) return null;
    await db().user.update({ where: { id: user.id }, data: { lastLoginAt: new Date() } });
    return { id: user.id, email: user.email, name: user.name ?? user.email, role: user.role };
  }),
});

const oidc = oidcConfig();

export const authOptions: NextAuthOptions = {
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
  jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
  useSecureCookies: secureCookies(),
  pages: { signIn: "/login", error: "/login" },
  providers: oidc ? [credentials, oidcProvider(oidc)] : [credentials],
  callbacks: {
    signIn: withoutDatabaseDetail(async ({ account, profile }) => {
      if (account?.provider !== OIDC_PROVIDER_ID) return true;
      const p = profile as OidcProfile | undefined;
      if (!p?.email || p.email_verified === false) return false;
      return (await findActiveUserByEmail(db(), p.email)) !== null;
    }),
    redirect: redirectWithinSite,
    // Runs at sign-in (user or account set) and whenever next-auth re-reads the JWT: only a
    // sign-in starts a session row.
    jwt: withoutDatabaseDetail(async ({ token, user, account, profile }) => {
      if (account?.provider === OIDC_PROVIDER_ID) {
        const found = await findActiveUserByEmail(db(), (profile as OidcProfile).email ?? "");
        if (found) {
          await db().user.update({ where: { id: found.id }, data: { lastLoginAt: new Date() } });
          token.uid = found.id;
          token.role = found.role;
          token.sid = await startSession(db(), found.id);
        }
      } else if (user) {
        token.uid = user.id;
        token.role = (user as { role?: string }).role;
        token.sid = await startSession(db(), user.id);
      }
      return token;
    }),
    async session({ session, token }) {
      if (session.user) {
        (session.user as { id?: string }).id = token.uid as string;
        (session.user as { role?: string }).role = token.role as string;
      }
      return session;
    },
  },
  events: {
    // "Sign out" ends this session only; "Sign out everywhere" is an action of its own.
    async signOut({ token }) {
      if (typeof token?.sid === "string") await endSession(db(), token.sid, "signed_out");
    },
  },
};
