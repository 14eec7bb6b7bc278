// Sign-in and token refresh (docs/user-guide.md, docs/api.md). Wrong e-mail and wrong password are the same 401, and
// failed attempts are throttled per e-mail and per client address.
import type { Actor, Deps, PendingActor } from "../context";
import type { User } from "../../ports";
import { invalidAt, TooManyRequests, Unauthorized } from "../errors";
import { dummyPasswordHash, hashPassword, verifyPassword } from "./passwords";
import { signToken, verifyToken, type TokenSettings } from "./tokens";
import { normaliseEmail, validatePassword, withoutPasswordHash } from "./users";

export const BAD_CREDENTIALS = "Неверный логин или пароль";

function tokenSettings(deps: Deps): TokenSettings {
  return {
    keys: deps.config,
    runtime: deps.runtime,
    accessTtlSeconds: deps.config.accessTtlSeconds,
    refreshTtlSeconds: deps.config.refreshTtlSeconds,
  };
}

export interface LoginRequest {
  email: string;
  password: string;
  guardant_code?: string;
  clientAddress: string;
}

/**
 * Failed sign-ins are budgeted per account (its e-mail) *from one client address* and per client
 * address across e-mails: a stranger's wrong passwords use up only their own address's budget for
 * that e-mail, so they cannot lock out the owner signing in from elsewhere. The address's budget is
 * many accounts' worth, so one person's typos, or one account guessed at, behind an office's shared
 * address (NAT) leave its colleagues signing in. Each attempt reserves its place before
 * the password is checked, so parallel requests cannot exceed a budget; the reservation is given
 * back when the attempt did not fail.
 */
export async function login(deps: Deps, request: LoginRequest): Promise<{ access: string; refresh: string }> {
  const { config, repos } = deps;
  const giveBack = await reserveAttempt(deps, request.email, request.clientAddress);
  const user = await repos.users.findByEmail(request.email);
  const passwordOk = await verifyPassword(
    request.password,
    user?.password_hash ?? (await dummyPasswordHash(deps.runtime, config.passwordCost)),
  );
  if (!user || !passwordOk || !user.is_active) throw new Unauthorized(BAD_CREDENTIALS, "bad_credentials");
  if (config.guardantCode !== undefined && request.guardant_code !== config.guardantCode) {
    // A wrong key code is a failed attempt too, or the code could be guessed without limit; a
    // missing one is only the first step of a sign-in with a key.
    if (!request.guardant_code) await giveBack();
    throw new Unauthorized(
      request.guardant_code ? "Неверный код ключа Guardant" : "Для входа введите код ключа Guardant",
      "guardant_required",
    );
  }
  await giveBack();
  return startSession(deps, user);
}

/** A place in the failed-attempt budgets of the e-mail from this address and of the address
 *  (login's rule above), reserved before a password is checked; the function returned gives it
 *  back when the attempt did not fail. Over a budget: 429 with the wait. */
async function reserveAttempt(deps: Deps, email: string, clientAddress: string): Promise<() => Promise<unknown>> {
  const { config, repos } = deps;
  const budgets = [
    { key: `login-email:${normaliseEmail(email)}@${clientAddress}`, limit: config.loginFailuresPerEmail },
    { key: `login-address:${clientAddress}`, limit: config.loginFailuresPerAddress },
  ];
  const reserved = await Promise.all(budgets.map(({ key, limit }) => repos.attempts.reserve(key, config.loginWindowSeconds, limit)));
  const giveBack = () => Promise.all(reserved.map((r) => r && repos.attempts.release(r)));
  if (reserved.some((r) => r === undefined)) {
    await giveBack();
    const waits = await Promise.all(
      budgets.map(({ key, limit }, i) => (reserved[i] ? 0 : repos.attempts.retryAfterSeconds(key, config.loginWindowSeconds, limit))),
    );
    const seconds = Math.max(...waits);
    throw new TooManyRequests(`Слишком много неудачных попыток входа. Повторите попытку через ${Math.ceil(seconds / 60)} мин.`, seconds);
  }
  return giveBack;
}

/** A new session of the user: its refresh token recorded, and the access token that names it. */
async function startSession(deps: Deps, user: User): Promise<{ access: string; refresh: string }> {
  const { repos } = deps;
  const now = deps.clock.now();
  const settings = tokenSettings(deps);
  const claims = { userId: user.id, companyId: user.company, generation: user.session_generation ?? 0 };
  const sessionId = crypto.randomUUID();
  const refresh = await signToken(settings, "refresh", { ...claims, sessionId }, now);
  await repos.sessions.start({
    id: sessionId,
    company: user.company,
    user: user.id,
    current: refresh.jti,
    expires_at: refresh.expiresAt,
  });
  // The access token names its session too: once the session is revoked, it is refused (activeUser).
  return { access: (await signToken(settings, "access", { ...claims, sessionId }, now)).token, refresh: refresh.token };
}

const WRONG_CURRENT_PASSWORD = "текущий пароль указан неверно";

/**
 * One's own new password, the current one checked first (budgeted as sign-in attempts are, so a
 * session left open is no way to guess it): every session of the user ends, this one included, and
 * the caller gets a new session's tokens, so only the browser that changed it stays signed in.
 */
export async function changeOwnPassword(
  deps: Deps,
  actor: Actor,
  request: { current_password: string; new_password: string; clientAddress: string },
): Promise<{ access: string; refresh: string }> {
  validatePassword(request.new_password, "new_password");
  if (request.new_password === request.current_password) throw invalidAt("new_password", "новый пароль совпадает с текущим");
  const giveBack = await reserveAttempt(deps, actor.email, request.clientAddress);
  const user = await deps.repos.users.get(actor.company, actor.id);
  if (!user) throw new Unauthorized("Пользователь не найден или отключен", "user_inactive");
  // A wrong current password is the form's mistake (400), not the session's end (401 signs out).
  if (!(await verifyPassword(request.current_password, user.password_hash))) throw invalidAt("current_password", WRONG_CURRENT_PASSWORD);
  await giveBack();
  // The write bumps the session generation: every token issued before it is refused from now on.
  // Conditional on the generation read: of changes sent at once one wins, the others
  // are 409 and end no session of their own making.
  await deps.repos.users.setPasswordHash(
    user.company,
    user.id,
    await hashPassword(request.new_password, deps.config.passwordCost),
    user.session_generation ?? 0,
  );
  const changed = await deps.repos.users.get(user.company, user.id);
  if (!changed) throw new Unauthorized("Пользователь не найден или отключен", "user_inactive");
  return startSession(deps, changed);
}

/** Two tabs of one browser may refresh with the same token at once; within this many seconds the
 *  replaced token still gets an access token (but no new refresh token) instead of ending the session. */
const REFRESH_REUSE_GRACE_SECONDS = 30;
const SESSION_OVER = "Сеанс завершен, войдите снова";

/**
 * Refresh tokens rotate: each use returns a new one and retires the old. A retired token used again
 * (outside the grace above) means someone else holds a copy: the whole session is revoked.
 */
export async function refreshAccess(deps: Deps, refreshToken: string): Promise<{ access: string; refresh?: string }> {
  const settings = tokenSettings(deps);
  const now = deps.clock.now();
  const claims = await verifyToken(settings, "refresh", refreshToken, now);
  const user = await activeUser(deps, claims);
  if (!claims.sessionId) throw new Unauthorized(SESSION_OVER, "token_not_valid");
  const next = await signToken(settings, "refresh", claims, now);
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const outcome = await deps.repos.sessions.rotate(claims.sessionId, claims.jti, next.jti, nowSeconds, REFRESH_REUSE_GRACE_SECONDS);
  const { jti: _id, ...accessClaims } = claims;
  const access = (await signToken(settings, "access", accessClaims, now)).token;
  if (outcome === "rotated") return { access, refresh: next.token };
  if (outcome === "just-rotated") return { access };
  if (outcome === "reused") await revokeAccess(deps, user, claims.sessionId, nowSeconds);
  throw new Unauthorized(SESSION_OVER, "token_not_valid");
}

/** The revoked session's access tokens are refused from the next request on: the user item (read
 *  on every request anyway) lists the session until its last access token would have expired. */
async function revokeAccess(deps: Deps, user: User, sessionId: string, nowSeconds: number): Promise<void> {
  const expired = Object.entries(user.revoked_sessions ?? {})
    .filter(([, until]) => until < nowSeconds)
    .map(([id]) => id);
  const until = nowSeconds + tokenSettings(deps).accessTtlSeconds;
  await deps.repos.users.revokeSession(user.company, user.id, sessionId, until, expired);
}

/** Resolves a bearer access token to the acting user; a deactivated or removed user is refused. */
export async function authenticate(deps: Deps, accessToken: string): Promise<Actor> {
  return (await authenticateWithFirstRead(deps, accessToken)).actor();
}

/**
 * The token checked, the user not yet read: a route whose first reads are known from the request
 * (the project of a create, the calculation of an edit) reads the user beside them, one BatchGet
 * for all (adapters/dynamodb/coalesced-gets.ts), in place of a Get of its own before them.
 * `company` is the token's (signed) and keys those reads; `actor()` starts the user's read on its
 * first call and makes the same checks as authenticate, so nothing the route does before it is
 * another company's or acts for a refused user.
 */
export async function authenticateWithFirstRead(deps: Deps, accessToken: string): Promise<PendingActor> {
  const claims = await verifyToken(tokenSettings(deps), "access", accessToken, deps.clock.now());
  let checked: Promise<Actor> | undefined;
  return {
    id: claims.userId,
    company: claims.companyId,
    actor: () => {
      checked ??= activeUser(deps, claims).then((user) => {
        const profile = withoutPasswordHash(user);
        return { id: profile.id, company: profile.company, email: profile.email, role: profile.role, profile };
      });
      return checked;
    },
  };
}

/** The token's user, still active, and the token issued since its last password, activation or role change. */
async function activeUser(deps: Deps, claims: { companyId: string; userId: string; generation: number; sessionId?: string }) {
  const user = await deps.repos.users.get(claims.companyId, claims.userId);
  if (!user?.is_active) throw new Unauthorized("Пользователь не найден или отключен", "user_inactive");
  if ((user.session_generation ?? 0) !== claims.generation) throw new Unauthorized(SESSION_OVER, "token_not_valid");
  if (claims.sessionId && user.revoked_sessions?.[claims.sessionId] !== undefined) throw new Unauthorized(SESSION_OVER, "token_not_valid");
  return user;
}
