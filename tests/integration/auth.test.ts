import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SignJWT } from "jose";
import { createHarness, type Harness } from "../support/harness";
import { createCompany, createUser, setUserActive } from "@server/domain/company/users";
import { fieldName } from "@server/contract/field-names";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ loginFailuresPerEmail: 3, loginFailuresPerAddress: 6 });
});
afterAll(() => h.close());

async function login(email: string, password: string, address?: string, guardant_code = "") {
  return h.request("/api/token/", { method: "POST", json: { email, password, guardant_code }, address });
}

describe("POST /api/token/", () => {
  it("returns access and refresh tokens for the right password", async () => {
    const { email } = await h.signedInUser();
    const res = await login(email, "correct-horse");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access: string; refresh: string };
    expect(body.access.split(".")).toHaveLength(3);
    expect(body.refresh.split(".")).toHaveLength(3);
  });

  it("accepts the e-mail in any case and with spaces around it", async () => {
    const { email } = await h.signedInUser();
    expect((await login(`  ${email.toUpperCase()} `, "correct-horse")).status).toBe(200);
  });

  it("answers a wrong password and an unknown e-mail with the same 401", async () => {
    const { email } = await h.signedInUser();
    const wrongPassword = await login(email, "wrong-password", "198.51.100.7");
    const unknownEmail = await login("nobody@example.com", "correct-horse", "198.51.100.8");
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    const refusal = (await wrongPassword.json()) as { detail: string };
    expect(refusal).toEqual(await unknownEmail.json());
    // The sentence the sign-in form shows (web/src/features/auth/LoginPage.test.tsx).
    expect(refusal.detail).toBe("Неверный логин или пароль");
  });

  it("rejects a body that is not JSON or lacks fields with 400 naming the field", async () => {
    const bad = await h.request("/api/token/", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{not json",
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ detail: expect.stringContaining("JSON") });
    const missing = await h.request("/api/token/", { method: "POST", json: { email: "a@b.c" } });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { detail: string }).detail).toContain(fieldName("password"));
  });

  it("refuses a body over the size cap with 413", async () => {
    const res = await h.request("/api/token/", {
      method: "POST",
      json: { email: "a@b.c", password: "x".repeat(1_100_000) },
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ detail: expect.any(String) });
  });

  it("throttles failed logins per e-mail from one address with 429, even with the right password afterwards", async () => {
    const { email } = await h.signedInUser();
    for (let i = 0; i < 3; i++) expect((await login(email, "nope", "192.0.2.10")).status).toBe(401);
    const res = await login(email, "correct-horse", "192.0.2.10");
    expect(res.status).toBe(429);
    // The three failures fill this window: the next one is possible once a third has slid out of
    // the sliding 15 minutes, 5 to 20 minutes from now depending on where in the window they fell.
    const wait = Number(res.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(5 * 60 - 1);
    expect(wait).toBeLessThanOrEqual(20 * 60);
    expect(((await res.json()) as { detail: string }).detail).toBe(
      `Слишком много неудачных попыток входа. Повторите попытку через ${Math.ceil(wait / 60)} мин.`,
    );
  });

  it("does not let a stranger's wrong passwords lock out the owner signing in from elsewhere", async () => {
    const { email } = await h.signedInUser();
    for (let i = 0; i < 5; i++) await login(email, "nope", "203.0.113.66");
    expect((await login(email, "correct-horse", "203.0.113.66")).status).toBe(429);
    expect((await login(email, "correct-horse", "198.51.100.20")).status).toBe(200);
  });

  it("does not count successful sign-ins against the budget", async () => {
    const { email } = await h.signedInUser();
    for (let i = 0; i < 5; i++) expect((await login(email, "correct-horse", "198.51.100.30")).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await login(email, "nope", "198.51.100.30")).status).toBe(401);
    expect((await login(email, "correct-horse", "198.51.100.30")).status).toBe(429);
  });

  it("throttles failed logins per client address across e-mails", async () => {
    const address = "192.0.2.200";
    for (let i = 0; i < 6; i++) await login(`ghost${i}@example.com`, "nope", address);
    const { email } = await h.signedInUser();
    const refused = await login(email, "correct-horse", address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await login(email, "correct-horse", "192.0.2.201")).status).toBe(200);
  });

  it("lets an office behind one address sign in after 50 failures of its people, an account's own budget spent", async () => {
    const g = await createHarness();
    try {
      expect(g.deps.config).toMatchObject({ loginFailuresPerEmail: 10, loginFailuresPerAddress: 200 });
      const office = "192.0.2.240";
      const people = await Promise.all(Array.from({ length: 6 }, () => g.signedInUser()));
      const attempt = (email: string, password: string) =>
        g.request("/api/token/", { method: "POST", json: { email, password, guardant_code: "" }, address: office });
      // Five people mistype ten times each; the fifth's eleventh try is refused: the account's budget.
      for (const { email } of people.slice(0, 5)) {
        const statuses = await Promise.all(Array.from({ length: 10 }, () => attempt(email, "typo")));
        expect(statuses.map((r) => r.status)).toEqual(Array(10).fill(401));
      }
      expect((await attempt(people[4].email, "correct-horse")).status).toBe(429);
      // The sixth signs in from the same address.
      expect((await attempt(people[5].email, "correct-horse")).status).toBe(200);
    } finally {
      await g.close();
    }
  }, 120_000);

  it("refuses a deactivated user: the tokens already issued stop working and sign-in fails", async () => {
    const { token, refresh, email, companyId, userId } = await h.signedInUser();
    expect((await h.request("/api/v1/users/get_me/", { token })).status).toBe(200);
    await setUserActive(h.deps, email, false);
    expect((await h.deps.repos.users.get(companyId, userId))?.is_active).toBe(false);
    expect((await h.request("/api/v1/users/get_me/", { token })).status).toBe(401);
    expect((await h.request("/api/token/refresh/", { method: "POST", json: { token: refresh } })).status).toBe(401);
    expect((await login(email, "correct-horse", "192.0.2.150")).status).toBe(401);
  });
});

describe("login throttle under concurrency", () => {
  it("checks no more than the limit of 40 parallel wrong logins; the rest get 429 and the right password waits", async () => {
    const g = await createHarness({ loginFailuresPerEmail: 10, loginFailuresPerAddress: 50 });
    try {
      const { email } = await g.signedInUser();
      const attempt = (password: string) =>
        g.request("/api/token/", { method: "POST", json: { email, password, guardant_code: "" }, address: "192.0.2.77" });
      const statuses = (await Promise.all(Array.from({ length: 40 }, () => attempt("wrong-password")))).map((r) => r.status);
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
      expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
      expect((await attempt("correct-horse")).status).toBe(429);
    } finally {
      await g.close();
    }
  });

  it("keeps the budget when the counting window turns over", async () => {
    const g = await createHarness({ loginFailuresPerEmail: 3, loginWindowSeconds: 600 });
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(new Date("2026-11-23T10:09:50Z"));
      for (let i = 0; i < 3; i++) expect(await g.deps.repos.attempts.reserve("window-test", 600, 3)).toBeDefined();
      expect(await g.deps.repos.attempts.reserve("window-test", 600, 3)).toBeUndefined();
      vi.setSystemTime(new Date("2026-11-23T10:10:05Z"));
      expect(await g.deps.repos.attempts.reserve("window-test", 600, 3)).toBeUndefined();
      // Most of a window later the old failures have mostly slid out.
      vi.setSystemTime(new Date("2026-11-23T10:19:00Z"));
      expect(await g.deps.repos.attempts.reserve("window-test", 600, 3)).toBeDefined();
    } finally {
      vi.useRealTimers();
      await g.close();
    }
  });
});

describe("guardant code", () => {
  it("counts wrong key codes as failed attempts, so the code cannot be guessed without limit", async () => {
    const g = await createHarness({ guardantCode: "7391", loginFailuresPerEmail: 3 });
    try {
      const company = await createCompany(g.deps, { name: "Г2" });
      await createUser(g.deps, { companyId: company.id, email: "k@example.com", password: "correct-horse" });
      const attempt = (guardant_code: string) =>
        g.request("/api/token/", { method: "POST", json: { email: "k@example.com", password: "correct-horse", guardant_code } });
      for (const code of ["1", "2", "3"]) expect((await attempt(code)).status).toBe(401);
      expect((await attempt("7391")).status).toBe(429);
    } finally {
      await g.close();
    }
  });

  it("is required and must match when the deployment configures one", async () => {
    const g = await createHarness({ guardantCode: "7391" });
    try {
      const company = await createCompany(g.deps, { name: "Г" });
      await createUser(g.deps, { companyId: company.id, email: "g@example.com", password: "correct-horse" });
      const wrong = await g.request("/api/token/", {
        method: "POST",
        json: { email: "g@example.com", password: "correct-horse", guardant_code: "0000" },
      });
      expect(wrong.status).toBe(401);
      expect(await wrong.json()).toMatchObject({ code: "guardant_required", detail: "Неверный код ключа Guardant" });
      const right = await g.request("/api/token/", {
        method: "POST",
        json: { email: "g@example.com", password: "correct-horse", guardant_code: "7391" },
      });
      expect(right.status).toBe(200);
      const missing = await g.request("/api/token/", {
        method: "POST",
        json: { email: "g@example.com", password: "correct-horse", guardant_code: "" },
      });
      expect(await missing.json()).toMatchObject({ code: "guardant_required", detail: "Для входа введите код ключа Guardant" });
    } finally {
      await g.close();
    }
  });
});

describe("tokens", () => {
  it("refreshes the access token with {token} and with {refresh}", async () => {
    const { refresh } = await h.signedInUser();
    for (const body of [{ token: refresh }, { refresh }]) {
      const res = await h.request("/api/token/refresh/", { method: "POST", json: body });
      expect(res.status).toBe(200);
      const { access } = (await res.json()) as { access: string };
      expect((await h.request("/api/v1/users/get_me/", { token: access })).status).toBe(200);
    }
  });

  it("never accepts an access token as a refresh token, nor the reverse", async () => {
    const { token, refresh } = await h.signedInUser();
    expect((await h.request("/api/token/refresh/", { method: "POST", json: { token } })).status).toBe(401);
    expect((await h.request("/api/v1/users/get_me/", { token: refresh })).status).toBe(401);
  });

  it("answers 401 with a detail for a missing, malformed, foreign-signed or expired token", async () => {
    const { token, userId, companyId } = await h.signedInUser();
    const foreign = await new SignJWT({ typ: "access", cid: companyId })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(userId)
      .setIssuer("fugitive-emissions")
      .setIssuedAt()
      .setNotBefore("0s")
      .setExpirationTime("10m")
      .sign(new TextEncoder().encode("some-other-secret-of-32-bytes!!!"));
    const expired = await createHarness({}, { now: () => new Date(Date.now() - 3600_000) });
    try {
      for (const bad of [undefined, "garbage", token.slice(0, -4) + "AAAA", foreign]) {
        const res = await h.request("/api/v1/users/get_me/", { token: bad });
        expect(res.status).toBe(401);
        expect(await res.json()).toEqual(expect.objectContaining({ detail: expect.any(String) }));
      }
      const old = await expired.signedInUser();
      // Tokens issued an hour ago with a 15-minute lifetime, checked by a server on the real clock.
      const other = { ...h.deps, config: { ...h.deps.config, jwtSecret: expired.deps.config.jwtSecret } };
      const { authenticate } = await import("@server/domain/company/auth");
      await expect(authenticate({ ...other, repos: expired.deps.repos }, old.token)).rejects.toMatchObject({
        kind: "unauthenticated",
        detail: "Срок действия токена истек",
      });
    } finally {
      await expired.close();
    }
  });
});
