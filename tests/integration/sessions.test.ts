// Sessions end when the password, activation or role changes; refresh tokens rotate on use, and a
// retired one used again revokes its whole session.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { setPassword, setUserActive, setUserRole } from "@server/domain/company/users";
import { signedInAdmin } from "../support/admin";

let h: Harness;
let now = new Date("2026-11-23T10:00:00Z");
beforeAll(async () => {
  h = await createHarness({}, { now: () => now });
});
afterAll(() => h.close());

const getMe = (token: string) => h.request("/api/v1/users/get_me/", { token });
const refresh = (token: string) => h.request("/api/token/refresh/", { method: "POST", json: { token } });

async function refreshed(token: string): Promise<{ access: string; refresh?: string }> {
  const res = await refresh(token);
  expect(res.status).toBe(200);
  return (await res.json()) as { access: string; refresh?: string };
}

async function expectSessionOver(session: { token: string; refresh: string }) {
  expect((await getMe(session.token)).status).toBe(401);
  expect((await refresh(session.refresh)).status).toBe(401);
}

describe("sessions end with a change of credentials", () => {
  it("ends on a new password (npm run admin -- set-password); the new password signs in", async () => {
    const user = await h.signedInUser();
    const project = await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token: user.token,
      json: { name: "До смены пароля", start_date: "2020-01-01", end_date: "2020-12-31" },
    });
    expect(project.status).toBe(201);
    await setPassword(h.deps, user.email, "a-new-password");
    await expectSessionOver(user);
    const created = await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token: user.token,
      json: { name: "После смены пароля", start_date: "2020-01-01", end_date: "2020-12-31" },
    });
    expect(created.status).toBe(401);
    const login = await h.request("/api/token/", { method: "POST", json: { email: user.email, password: "a-new-password" } });
    expect(login.status).toBe(200);
    expect((await getMe(((await login.json()) as { access: string }).access)).status).toBe(200);
  });

  it("ends on an admin's password reset", async () => {
    const user = await h.signedInUser();
    const admin = await signedInAdmin(h);
    const res = await h.request(`/api/v1/admin/companies/${user.companyId}/users/${user.userId}/reset_password/`, {
      method: "POST",
      token: admin.token,
      json: { password: "reset-by-admin" },
    });
    expect(res.status).toBe(200);
    await expectSessionOver(user);
  });

  it("ends on a role change and on deactivation, and stays ended after reactivation", async () => {
    const promoted = await h.signedInUser();
    await setUserRole(h.deps, promoted.email, "admin");
    await expectSessionOver(promoted);

    const paused = await h.signedInUser();
    await setUserActive(h.deps, paused.email, false);
    await setUserActive(h.deps, paused.email, true);
    await expectSessionOver(paused);
  });

  it("keeps the session when nothing about the credentials changed", async () => {
    const user = await h.signedInUser();
    await setUserRole(h.deps, user.email, "staff");
    expect((await getMe(user.token)).status).toBe(200);
    expect((await refresh(user.refresh)).status).toBe(200);
  });
});

describe("refresh tokens rotate", () => {
  it("returns a new refresh token with each access token; the new one works in turn", async () => {
    const user = await h.signedInUser();
    const first = await refreshed(user.refresh);
    expect(first.refresh).toEqual(expect.any(String));
    expect(first.refresh).not.toBe(user.refresh);
    expect((await getMe(first.access)).status).toBe(200);
    const second = await refreshed(first.refresh!);
    expect(second.refresh).toEqual(expect.any(String));
  });

  it("treats a retired refresh token used again as theft: the whole session is revoked", async () => {
    const user = await h.signedInUser();
    const next = await refreshed(user.refresh);
    now = new Date(now.getTime() + 60_000);
    expect((await refresh(user.refresh)).status).toBe(401);
    // The thief's use also ends the rightful holder's chain.
    expect((await refresh(next.refresh!)).status).toBe(401);
    // Another sign-in of the same user is another session and is untouched.
    const other = await h.request("/api/token/", { method: "POST", json: { email: user.email, password: "correct-horse" } });
    expect((await refreshed(((await other.json()) as { refresh: string }).refresh)).refresh).toEqual(expect.any(String));
  });

  // hostile: the access tokens of a revoked session worked until they expired (15 min).
  it("refuses the access tokens of a revoked session on their next request (round-trips.test.ts keeps get_me at 2 calls)", async () => {
    const user = await h.signedInUser();
    const next = await refreshed(user.refresh);
    expect((await getMe(user.token)).status).toBe(200);
    expect((await getMe(next.access)).status).toBe(200);
    const other = await h.request("/api/token/", { method: "POST", json: { email: user.email, password: "correct-horse" } });
    const otherSession = (await other.json()) as { access: string };
    now = new Date(now.getTime() + 60_000);
    expect((await refresh(user.refresh)).status).toBe(401);
    // Both the thief's and the holder's access tokens of that session: refused at once.
    for (const token of [user.token, next.access]) {
      const res = await getMe(token);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { detail: string }).detail).toBe("Сеанс завершен, войдите снова");
    }
    // Another session of the same user is untouched.
    expect((await getMe(otherSession.access)).status).toBe(200);
    const profile = (await (await getMe(otherSession.access)).json()) as Record<string, unknown>;
    expect(profile).not.toHaveProperty("revoked_sessions");
    // A later revocation drops entries whose access tokens have all expired.
    const third = await h.request("/api/token/", { method: "POST", json: { email: user.email, password: "correct-horse" } });
    const thirdSession = (await third.json()) as { refresh: string };
    await refreshed(thirdSession.refresh);
    now = new Date(now.getTime() + 20 * 60_000);
    expect((await refresh(thirdSession.refresh)).status).toBe(401);
    const stored = await h.deps.repos.users.get(user.companyId, user.userId);
    expect(Object.keys(stored?.revoked_sessions ?? {})).toHaveLength(1);
  });

  it("gives a second tab that refreshes with the same token at once an access token and no refresh token", async () => {
    const user = await h.signedInUser();
    const [a, b] = await Promise.all([refresh(user.refresh), refresh(user.refresh)]);
    const bodies = [(await a.json()) as { access: string; refresh?: string }, (await b.json()) as { access: string; refresh?: string }];
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(bodies.filter((body) => body.refresh !== undefined)).toHaveLength(1);
    const rotated = bodies.find((body) => body.refresh !== undefined)!;
    expect((await refreshed(rotated.refresh!)).refresh).toEqual(expect.any(String));
  });

  it("refuses a refresh token from before rotation existed (no session id) with 401", async () => {
    const user = await h.signedInUser();
    const { SignJWT } = await import("jose");
    const iat = Math.floor(now.getTime() / 1000);
    const legacy = await new SignJWT({ typ: "refresh", cid: user.companyId })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(user.userId)
      .setIssuer("fugitive-emissions")
      .setIssuedAt(iat)
      .setNotBefore(iat)
      .setExpirationTime(iat + 3600)
      .setJti("legacy")
      .sign(h.deps.config.jwtSecret);
    const res = await refresh(legacy);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ detail: expect.any(String), code: expect.any(String) });
  });
});

// A calculation's create, edit and archive read the signed-in user beside the project or the
// calculation they name (one BatchGet, round-trips.test.ts): they refuse an ended session as every
// other route does, before anything they would answer or write.
describe("a create, an edit and an archive, which read the user beside their own first read", () => {
  const TYPE = "/api/v1/underground_emission_ch4/";

  async function fixture() {
    const user = await h.signedInUser();
    const project = await h.newProject(user.token);
    const created = await h.request(TYPE, {
      method: "POST",
      token: user.token,
      json: { name: "Расчет", project: project.id, volume: 1000, ef: 18 },
    });
    expect(created.status).toBe(201);
    const calculation = (await created.json()) as { id: string; version: number };
    const stranger = await h.signedInUser();
    const theirs = await h.newProject(stranger.token);
    const theirCreated = await h.request(TYPE, {
      method: "POST",
      token: stranger.token,
      json: { name: "Чужой", project: theirs.id, volume: 1, ef: 1 },
    });
    const theirCalculation = (await theirCreated.json()) as { id: string };
    const requests: Array<[string, string, unknown]> = [
      ["POST", TYPE, { name: "Новый", project: project.id, volume: 1000, ef: 18 }],
      ["POST", TYPE, { name: "", project: project.id, volume: -1 }],
      ["POST", TYPE, { name: "Новый", project: theirs.id, volume: 1000, ef: 18 }],
      ["POST", TYPE, { name: "Новый", project: "no-such-project", volume: 1000, ef: 18 }],
      ["PATCH", `${TYPE}${calculation.id}/`, { volume: 2000 }],
      ["PATCH", `${TYPE}${calculation.id}/`, { is_deleted: true }],
      ["PATCH", `${TYPE}${calculation.id}/`, { volume: "много" }],
      ["PATCH", `${TYPE}${theirCalculation.id}/`, { volume: 2000 }],
      ["PATCH", `${TYPE}no-such-calculation/`, { volume: 2000 }],
    ];
    return { user, project, calculation, requests };
  }

  async function expectRefusedLikeGetMe(token: string, requests: Array<[string, string, unknown]>) {
    const refused = await getMe(token);
    expect(refused.status).toBe(401);
    const answer = await refused.json();
    for (const [method, path, json] of requests) {
      const res = await h.request(path, { method, token, json });
      expect([method, path, res.status, await res.json()]).toEqual([method, path, 401, answer]);
    }
  }

  it("answer an active user's requests as before: another company's project or calculation is not found", async () => {
    const { user, requests } = await fixture();
    const statuses = [];
    for (const [method, path, json] of requests.slice(1))
      statuses.push((await h.request(path, { method, token: user.token, json })).status);
    expect(statuses).toEqual([400, 404, 404, 200, 200, 400, 404, 404]);
  });

  for (const [ending, end] of [
    ["deactivation", (u: { email: string }) => setUserActive(h.deps, u.email, false)],
    ["a role change", (u: { email: string }) => setUserRole(h.deps, u.email, "admin")],
    ["a new password", (u: { email: string }) => setPassword(h.deps, u.email, "a-new-password")],
    [
      "a revoked session",
      async (u: { refresh: string }) => {
        await refreshed(u.refresh);
        now = new Date(now.getTime() + 60_000);
        expect((await refresh(u.refresh)).status).toBe(401);
      },
    ],
  ] as const) {
    it(`refuse a session ended by ${ending} with authentication's answer, whatever the body or the id, and write nothing`, async () => {
      const { user, calculation, project, requests } = await fixture();
      await (end as (u: typeof user) => Promise<unknown>)(user);
      await expectRefusedLikeGetMe(user.token, requests);
      const stored = await h.deps.repos.calculations.get(user.companyId, "underground_emission_ch4", calculation.id);
      expect(stored).toMatchObject({ version: calculation.version, is_deleted: false, inputs: { volume: 1000 } });
      const page = await h.deps.repos.calculations.list(user.companyId, project.id, "underground_emission_ch4", "active", {
        limit: 10,
        offset: 0,
      });
      expect(page.results.map((c) => c.id)).toEqual([calculation.id]);
    });
  }
});
