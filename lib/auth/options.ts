// next-auth configuration: Credentials with scrypt hashes, JWT sessions of 8 hours that carry
// the user's session version (./session-version.ts), optional OIDC from the environment. OIDC
// never creates accounts: it signs in an existing, active console user whose email the identity
// provider reports (verified), with that user's role; admins add such users in Settings → Users.
import type { NextAuthOptions } from "next-auth";
import type { Provider } from "next-auth/providers/index";
import CredentialsProvider from "next-auth/providers/credentials";
import { db } from "../db/client";
import { secureCookies } from "./cookies";
import { passwordSignIn } from "./password";
import { endSessionsOnSignOut } from "./session-version";
import { findActiveUserByEmail } from "./users";
import { trimEdges } from "../text/trim-edges";

export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;
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
  async authorize(credentials) {
    const email = String(credentials?.email ?? "").trim().toLowerCase();
    const password = String(credentials?.password ?? "");
    if (!email || !password) return null;
    const user = await passwordSignIn(await db().user.findUnique({ where: { email } }), password);
    if (!user) return null;
    await db().user.update({ where: { id: user.id }, data: { lastLoginAt: new Date() } });
    return { id: user.id, email: user.email, name: user.name ?? user.email, role: user.role, sessionVersion: user.sessionVersion };
  },
});

const oidc = oidcConfig();

export const authOptions: NextAuthOptions = {
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
  jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
  useSecureCookies: secureCookies(),
  pages: { signIn: "/login", error: "/login" },
  providers: oidc ? [credentials, oidcProvider(oidc)] : [credentials],
  callbacks: {
    async signIn({ account, profile }) {
      if (account?.provider !== OIDC_PROVIDER_ID) return true;
      const p = profile as OidcProfile | undefined;
      if (!p?.email || p.email_verified === false) return false;
      return (await findActiveUserByEmail(db(), p.email)) !== null;
    },
    async jwt({ token, user, account, profile }) {
      if (account?.provider === OIDC_PROVIDER_ID) {
        const found = await findActiveUserByEmail(db(), (profile as OidcProfile).email ?? "");
        if (found) {
          await db().user.update({ where: { id: found.id }, data: { lastLoginAt: new Date() } });
          token.uid = found.id;
          token.role = found.role;
          token.sv = found.sessionVersion;
        }
      } else if (user) {
        token.uid = user.id;
        token.role = (user as { role?: string }).role;
        token.sv = (user as { sessionVersion?: number }).sessionVersion;
      }
      return token;
    },
    async session({ session, token }) {
      if (session.user) {
        (session.user as { id?: string }).id = token.uid as string;
        (session.user as { role?: string }).role = token.role as string;
        (session.user as { sessionVersion?: unknown }).sessionVersion = token.sv;
      }
      return session;
    },
  },
  events: {
    async signOut({ token }) {
      if (typeof token?.uid === "string") await endSessionsOnSignOut(db(), token.uid, token.sv);
    },
  },
};
