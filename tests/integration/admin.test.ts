// /api/v1/admin/…: roles checked server-side on every route, companies and users across companies,
// coefficient versions, and the change log with before/after.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFreshHarness, createHarness, type Harness } from "../support/harness";
import { mp4Bytes, multipart, pdfBytes, signedInAdmin, signIn, type SignedIn } from "../support/admin";
import { adminRoutes } from "@server/http/admin";
import { fieldName } from "@server/contract/field-names";

let h: Harness;
let admin: SignedIn;
let staff: Awaited<ReturnType<Harness["signedInUser"]>>;
let other: Awaited<ReturnType<Harness["signedInUser"]>>;

beforeAll(async () => {
  // A table of its own: the tests change the calendar, documents, media and upload limits of the whole platform.
  h = await createFreshHarness();
  admin = await signedInAdmin(h, "Оператор платформы");
  staff = await h.signedInUser("Шахта Северная");
  other = await h.signedInUser("Разрез Южный");
});
afterAll(() => h.close());

interface Call {
  method: string;
  path: string;
  json?: unknown;
  body?: () => Promise<{ body: Uint8Array; headers: Record<string, string> }>;
}

type Audit = {
  results: Array<{ action: string; target_type: string; target_id: string; actor_email: string; before: any; after: any; at: string }>;
  count: number;
};

const send = async (call: Call, token?: string) => {
  const raw = call.body ? await call.body() : undefined;
  return h.request(call.path, {
    method: call.method,
    token,
    json: call.json,
    body: raw?.body as NonNullable<RequestInit["body"]> | undefined,
    headers: raw?.headers,
  });
};

async function ok<T = any>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

const get = (path: string, token = admin.token) => h.request(path, { token });
const call = (method: string, path: string, json?: unknown, token = admin.token) => h.request(path, { method, token, json });

async function lastAudit(): Promise<Audit["results"][number]> {
  const page = await ok<Audit>(await get("/api/v1/admin/audit/?limit=1&offset=0"));
  return page.results[0];
}

describe("roles", () => {
  // Every route of the admin sub-app, with a body that would succeed for an admin.
  const calls = (): Call[] => [
    { method: "GET", path: "/api/v1/admin/companies/" },
    { method: "POST", path: "/api/v1/admin/companies/", json: { name: "Захват" } },
    { method: "GET", path: `/api/v1/admin/companies/${other.companyId}/` },
    { method: "PATCH", path: `/api/v1/admin/companies/${other.companyId}/`, json: { region: "Захвачено" } },
    { method: "GET", path: `/api/v1/admin/companies/${other.companyId}/users/` },
    {
      method: "POST",
      path: `/api/v1/admin/companies/${other.companyId}/users/`,
      json: { email: "mole@example.com", password: "long-enough-1" },
    },
    { method: "PATCH", path: `/api/v1/admin/companies/${other.companyId}/users/${other.userId}/`, json: { role: "admin" } },
    {
      method: "POST",
      path: `/api/v1/admin/companies/${other.companyId}/users/${other.userId}/reset_password/`,
      json: { password: "taken-over-1" },
    },
    {
      method: "PATCH",
      path: "/api/v1/admin/dictionary/get_torch_ch4/1/",
      json: { field: "koef_transform", value: 1, effective_from: "2030-01-01", reason: "захват", version: 1 },
    },
    { method: "GET", path: "/api/v1/admin/documents/" },
    {
      method: "POST",
      path: "/api/v1/admin/documents/",
      body: () => multipart({ title: "Захват", kind: "law" }, { name: "x.pdf", bytes: pdfBytes() }),
    },
    { method: "PUT", path: "/api/v1/admin/documents/fz-296/file/", body: () => multipart({}, { name: "x.pdf", bytes: pdfBytes() }) },
    { method: "PATCH", path: "/api/v1/admin/documents/fz-296/", json: { is_deleted: true } },
    { method: "GET", path: "/api/v1/admin/media/" },
    {
      method: "PUT",
      path: "/api/v1/admin/media/instruction/",
      body: async () => {
        const body = mp4Bytes();
        return { body, headers: { "Content-Type": "video/mp4", "Content-Length": String(body.byteLength) } };
      },
    },
    { method: "DELETE", path: "/api/v1/admin/media/instruction/" },
    { method: "POST", path: "/api/v1/admin/documents/upload-url/", json: { content_type: "application/pdf", size: 2048, name: "x.pdf" } },
    { method: "POST", path: "/api/v1/admin/documents/complete/", json: { upload_id: "an-upload-id", title: "Захват", kind: "law" } },
    { method: "POST", path: "/api/v1/admin/media/upload-url/", json: { kind: "instruction", content_type: "video/mp4", size: 4096 } },
    { method: "POST", path: "/api/v1/admin/media/complete/", json: { upload_id: "an-upload-id" } },
    { method: "GET", path: "/api/v1/admin/audit/" },
    { method: "GET", path: "/api/v1/admin/upload_limits/" },
    { method: "GET", path: "/api/v1/admin/ca-roots/" },
    {
      method: "POST",
      path: "/api/v1/admin/ca-roots/",
      body: () => multipart({}, { name: "ca.cer", bytes: new TextEncoder().encode("not a certificate") }),
    },
    { method: "DELETE", path: `/api/v1/admin/ca-roots/${"0".repeat(64)}/` },
    { method: "GET", path: "/api/v1/admin/calendar/" },
    {
      method: "POST",
      path: "/api/v1/admin/calendar/",
      json: { year: 2031, decree: { title: "Захват", number: "", date: "" }, days_off: [], working_days: [] },
    },
    {
      method: "PUT",
      path: "/api/v1/admin/calendar/2026/",
      json: { decree: { title: "Захват", number: "", date: "" }, days_off: [], working_days: [], version: 1 },
    },
  ];

  it("covers every route the admin API declares", () => {
    const declared = adminRoutes.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path.replace(/:[a-zA-Z]+/g, ":p")}`);
    const tested = calls().map((c) => `${c.method} ${c.path.replace("/api/v1/admin", "").replace(/\/$/, "")}`);
    const normalised = tested.map((t) =>
      t
        .replace(other.companyId, ":p")
        .replace(other.userId, ":p")
        .replace("get_torch_ch4/1", ":p/:p")
        .replace("fz-296", ":p")
        .replace("media/instruction", "media/:p")
        .replace("calendar/2026", "calendar/:p")
        .replace("0".repeat(64), ":p"),
    );
    expect([...new Set(normalised)].sort()).toEqual([...new Set(declared)].sort());
  });

  it("answers 401 without a token on every admin route", async () => {
    for (const c of calls()) {
      const res = await send(c);
      expect(res.status, `${c.method} ${c.path}`).toBe(401);
      expect(await res.json()).toHaveProperty("detail");
    }
  });

  it("answers 403 {detail} to a staff user on every admin route and changes nothing", async () => {
    for (const c of calls()) {
      const res = await send(c, staff.token);
      expect(res.status, `${c.method} ${c.path}`).toBe(403);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/Недостаточно прав/);
    }
    const company = await ok(await get(`/api/v1/admin/companies/${other.companyId}/`));
    expect(company.region).toBe("");
    expect((await signIn(h, other.email, "taken-over-1")).status).toBe(401);
    expect((await ok<Audit>(await get("/api/v1/admin/audit/"))).count).toBe(0);
  });

  it("returns the role with get_me", async () => {
    expect((await ok(await get("/api/v1/users/get_me/"))).role).toBe("admin");
    expect((await ok(await get("/api/v1/users/get_me/", staff.token))).role).toBe("staff");
  });
});

describe("upload caps", () => {
  it("answers the caps this server applies, the environment's where it sets them", async () => {
    expect(await ok(await get("/api/v1/admin/upload_limits/"))).toEqual({
      document_max_bytes: 50 * 1024 * 1024,
      video_max_bytes: 500 * 1024 * 1024,
      model_max_bytes: 20 * 1024 * 1024,
    });
    const small = await createHarness({ documentMaxBytes: 2 * 1024 * 1024, videoMaxBytes: 100 * 1024 * 1024 });
    try {
      const smallAdmin = await signedInAdmin(small, "Оператор с малыми лимитами");
      const limits = await ok(await small.request("/api/v1/admin/upload_limits/", { token: smallAdmin.token }));
      expect(limits).toMatchObject({ document_max_bytes: 2 * 1024 * 1024, video_max_bytes: 100 * 1024 * 1024 });
    } finally {
      await small.close();
    }
  });
});

describe("companies", () => {
  let created: { id: string; version: number };

  it("lists every company to an admin of another company", async () => {
    const list = await ok<{ results: Array<{ id: string; name: string }> }>(await get("/api/v1/admin/companies/"));
    expect(list.results.map((c) => c.name)).toEqual(expect.arrayContaining(["Оператор платформы", "Шахта Северная", "Разрез Южный"]));
  });

  it("creates a company with checked requisites and logs it", async () => {
    created = await ok(
      await call("POST", "/api/v1/admin/companies/", {
        name: "  АО «Угольная компания»  ",
        email: "info@ugol.example",
        ogrn: "1027700132195",
        okved: "05.10",
        region: "Кемеровская область — Кузбасс",
        postal_address: "650000, г. Кемерово",
      }),
      201,
    );
    expect(created).toMatchObject({ name: "АО «Угольная компания»", ogrn: "1027700132195", version: 0 });
    const entry = await lastAudit();
    expect(entry).toMatchObject({ action: "company.create", target_id: created.id, actor_email: admin.email, before: null });
    expect(entry.after).toMatchObject({ name: "АО «Угольная компания»", okved: "05.10" });
  });

  it("refuses a wrong ОГРН check digit, a malformed ОКВЭД and a taken name, naming the field", async () => {
    const bad = await call("POST", "/api/v1/admin/companies/", { name: "Другая", ogrn: "1027700132194" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(new RegExp(`^${fieldName("ogrn")}: `));
    const okved = await call("POST", "/api/v1/admin/companies/", { name: "Другая", okved: "0510" });
    expect(((await okved.json()) as { detail: string }).detail).toMatch(new RegExp(`^${fieldName("okved")}: `));
    expect((await call("POST", "/api/v1/admin/companies/", { name: "ао «угольная компания»" })).status).toBe(409);
    expect((await ok(await call("POST", "/api/v1/admin/companies/", { name: "ИП Иванов", ogrn: "304500116000157" }), 201)).ogrn).toBe(
      "304500116000157",
    );
  });

  it("edits requisites with versions, logging before and after", async () => {
    const edited = await ok(
      await call("PATCH", `/api/v1/admin/companies/${created.id}/`, { region: "Кузбасс", okved: "05.10.1", version: 0 }),
    );
    expect(edited).toMatchObject({ region: "Кузбасс", okved: "05.10.1", name: "АО «Угольная компания»", version: 1 });
    const entry = await lastAudit();
    expect(entry.action).toBe("company.update");
    expect(entry.before).toMatchObject({ region: "Кемеровская область — Кузбасс", okved: "05.10", version: 0 });
    expect(entry.after).toMatchObject({ region: "Кузбасс", okved: "05.10.1", version: 1 });
    expect((await call("PATCH", `/api/v1/admin/companies/${created.id}/`, { region: "x", version: 0 })).status).toBe(409);
    expect((await call("PATCH", `/api/v1/admin/companies/${created.id}/`, { name: "Шахта Северная" })).status).toBe(409);
    expect((await call("PATCH", `/api/v1/admin/companies/${created.id}/`, { ogrn: "123" })).status).toBe(400);
    expect((await call("GET", "/api/v1/admin/companies/no-such-company/")).status).toBe(404);
  });
});

describe("users", () => {
  let companyId: string;
  let user: { id: string; email: string };

  beforeAll(async () => {
    companyId = (await ok(await call("POST", "/api/v1/admin/companies/", { name: "Шахта Новая" }), 201)).id;
  });

  it("creates a user who can then sign in; the log holds no password", async () => {
    user = await ok(
      await call("POST", `/api/v1/admin/companies/${companyId}/users/`, {
        email: "Miner@Example.com",
        password: "first-password",
        first_name: "Петр",
        last_name: "Сидоров",
      }),
      201,
    );
    expect(user).toMatchObject({ email: "miner@example.com", role: "staff", is_active: true, company: companyId });
    expect(user).not.toHaveProperty("password_hash");
    expect((await signIn(h, "miner@example.com", "first-password")).status).toBe(200);
    const entry = await lastAudit();
    expect(entry).toMatchObject({ action: "user.create", target_id: user.id, before: null });
    expect(JSON.stringify(entry)).not.toMatch(/password_hash|scrypt|first-password/);
    const list = await ok<{ results: Array<{ email: string }> }>(await get(`/api/v1/admin/companies/${companyId}/users/`));
    expect(list.results.map((u) => u.email)).toEqual(["miner@example.com"]);
    expect(
      (await call("POST", `/api/v1/admin/companies/${companyId}/users/`, { email: "miner@example.com", password: "x-password" })).status,
    ).toBe(409);
    expect(
      (await call("POST", `/api/v1/admin/companies/${companyId}/users/`, { email: "short@example.com", password: "short" })).status,
    ).toBe(400);
  });

  it("changes the role: the user's sessions end, and the next sign-in carries the new role", async () => {
    await ok(await call("PATCH", `/api/v1/admin/companies/${companyId}/users/${user.id}/`, { role: "admin" }));
    const token = ((await (await signIn(h, "miner@example.com", "first-password")).json()) as { access: string }).access;
    expect((await get("/api/v1/admin/companies/", token)).status).toBe(200);
    // The same role again is no change: the session stays.
    await ok(await call("PATCH", `/api/v1/admin/companies/${companyId}/users/${user.id}/`, { role: "admin", first_name: "Иван" }));
    expect((await get("/api/v1/admin/companies/", token)).status).toBe(200);
    await ok(await call("PATCH", `/api/v1/admin/companies/${companyId}/users/${user.id}/`, { role: "staff" }));
    expect((await get("/api/v1/admin/companies/", token)).status).toBe(401);
    const staffToken = ((await (await signIn(h, "miner@example.com", "first-password")).json()) as { access: string }).access;
    expect((await get("/api/v1/admin/companies/", staffToken)).status).toBe(403);
    const entry = await lastAudit();
    expect(entry).toMatchObject({ action: "user.update", before: { role: "admin" }, after: { role: "staff" } });
  });

  it("deactivates and activates: a deactivated user cannot sign in", async () => {
    await ok(await call("PATCH", `/api/v1/admin/companies/${companyId}/users/${user.id}/`, { is_active: false }));
    expect((await signIn(h, "miner@example.com", "first-password")).status).toBe(401);
    expect(await lastAudit()).toMatchObject({ before: { is_active: true }, after: { is_active: false } });
    await ok(await call("PATCH", `/api/v1/admin/companies/${companyId}/users/${user.id}/`, { is_active: true }));
    expect((await signIn(h, "miner@example.com", "first-password")).status).toBe(200);
  });

  it("resets a password to a given one or a generated one shown once", async () => {
    await ok(await call("POST", `/api/v1/admin/companies/${companyId}/users/${user.id}/reset_password/`, { password: "second-password" }));
    expect((await signIn(h, "miner@example.com", "first-password")).status).toBe(401);
    expect((await signIn(h, "miner@example.com", "second-password")).status).toBe(200);
    const generated = await ok<{ password: string }>(
      await h.request(`/api/v1/admin/companies/${companyId}/users/${user.id}/reset_password/`, { method: "POST", token: admin.token }),
    );
    expect(generated.password.length).toBeGreaterThanOrEqual(12);
    expect((await signIn(h, "miner@example.com", generated.password)).status).toBe(200);
    const entry = await lastAudit();
    expect(entry).toMatchObject({ action: "user.reset_password", after: { password_reset: true, generated: true } });
    expect(JSON.stringify(entry)).not.toContain(generated.password);
  });

  it("moves a user without work to another company; the user signs in there", async () => {
    const target = (await ok(await call("POST", "/api/v1/admin/companies/", { name: "Шахта Дальняя" }), 201)).id;
    const moved = await ok(await call("PATCH", `/api/v1/admin/companies/${companyId}/users/${user.id}/`, { company: target }));
    expect(moved.company).toBe(target);
    expect(await lastAudit()).toMatchObject({ action: "user.move", before: { company: companyId }, after: { company: target } });
    // The user now lives in the target company: admin operations address it there.
    await ok(await call("POST", `/api/v1/admin/companies/${target}/users/${user.id}/reset_password/`, { password: "third-password" }));
    const res = await signIn(h, "miner@example.com", "third-password");
    const token = ((await res.json()) as { access: string }).access;
    expect((await ok(await get("/api/v1/users/get_me/", token))).company.id).toBe(target);
    expect((await ok<{ count: number }>(await get(`/api/v1/admin/companies/${companyId}/users/`))).count).toBe(0);
  });

  it("refuses (409) to move a user who created a project or a calculation in the old company", async () => {
    const project = await ok(
      await h.request("/api/v1/projects/create_project/", {
        method: "POST",
        token: staff.token,
        json: { name: "Шахта", start_date: "2024-01-01", end_date: "2024-12-31" },
      }),
      201,
    );
    const res = await call("PATCH", `/api/v1/admin/companies/${staff.companyId}/users/${staff.userId}/`, { company: other.companyId });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/перевод в другую компанию невозможен/);
    expect((await get("/api/v1/users/get_me/", staff.token)).status).toBe(200);
    // Archiving the project does not change who made it.
    await h.request(`/api/v1/projects/${project.id}/`, { method: "PATCH", token: staff.token, json: { is_deleted: true } });
    expect(
      (await call("PATCH", `/api/v1/admin/companies/${staff.companyId}/users/${staff.userId}/`, { company: other.companyId })).status,
    ).toBe(409);

    // A colleague who only calculated in that project is refused too.
    const colleague = await ok(
      await call("POST", `/api/v1/admin/companies/${staff.companyId}/users/`, {
        email: "colleague@example.com",
        password: "colleague-pass",
      }),
      201,
    );
    const token = ((await (await signIn(h, "colleague@example.com", "colleague-pass")).json()) as { access: string }).access;
    await h.request(`/api/v1/projects/${project.id}/`, { method: "PATCH", token, json: { is_deleted: false } });
    await ok(
      await h.request("/api/v1/underground_emission_ch4/", {
        method: "POST",
        token,
        json: { name: "Выбросы", project: project.id, volume: 1000, ef: 18 },
      }),
      201,
    );
    const refused = await call("PATCH", `/api/v1/admin/companies/${staff.companyId}/users/${colleague.id}/`, { company: other.companyId });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/проекты \(0\) и расчеты \(1\)/);
  });

  it("does not let an admin lock themselves out", async () => {
    const self = `/api/v1/admin/companies/${admin.companyId}/users/${admin.userId}/`;
    expect((await call("PATCH", self, { role: "staff" })).status).toBe(409);
    expect((await call("PATCH", self, { is_active: false })).status).toBe(409);
    expect((await call("PATCH", `/api/v1/admin/companies/${companyId}/users/no-such-user/`, { role: "admin" })).status).toBe(404);
  });
});

describe("dictionaries", () => {
  it("changes a coefficient as a new version with effective date and reason, logged", async () => {
    const changed = await ok(
      await call("PATCH", "/api/v1/admin/dictionary/get_underground_emission_ch4/1/", {
        field: "ef",
        value: 19,
        effective_from: "2027-01-01",
        reason: "Замеры 2026 года",
        version: 1,
      }),
    );
    expect(changed).toMatchObject({ id: 1, ef: 19, version: 2, effective_from: "2027-01-01" });
    const history = await ok<{ results: Array<{ version: number; ef: number; changed_by: string; reason: string }> }>(
      await get("/api/v1/dictionary/get_underground_emission_ch4/1/history/", staff.token),
    );
    expect(history.results.map((v) => [v.version, v.ef])).toEqual([
      [1, 18],
      [2, 19],
    ]);
    expect(history.results[1]).toMatchObject({ changed_by: admin.email, reason: "Замеры 2026 года" });
    const entry = await lastAudit();
    expect(entry).toMatchObject({ action: "dictionary.change", target_id: "get_underground_emission_ch4/1" });
    expect(entry.before).toMatchObject({ ef: 18, version: 1 });
    expect(entry.after).toMatchObject({ ef: 19, version: 2, reason: "Замеры 2026 года" });
  });

  it("refuses a stale version (409), an unknown field and a missing reason (400)", async () => {
    const body = { field: "ef", value: 20, effective_from: "2027-01-01", reason: "x", version: 1 };
    expect((await call("PATCH", "/api/v1/admin/dictionary/get_underground_emission_ch4/1/", body)).status).toBe(409);
    expect(
      (await call("PATCH", "/api/v1/admin/dictionary/get_underground_emission_ch4/1/", { ...body, version: 2, field: "nope" })).status,
    ).toBe(400);
    expect(
      (await call("PATCH", "/api/v1/admin/dictionary/get_underground_emission_ch4/1/", { ...body, version: 2, reason: " " })).status,
    ).toBe(400);
    expect((await call("PATCH", "/api/v1/admin/dictionary/get_nothing/1/", { ...body, version: 2 })).status).toBe(404);
  });
});

describe("audit log", () => {
  it("lists every change newest first with pagination", async () => {
    const all = await ok<Audit>(await get("/api/v1/admin/audit/?limit=100&offset=0"));
    expect(all.count).toBe(all.results.length);
    expect(all.count).toBeGreaterThanOrEqual(12);
    const times = all.results.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
    const actions = new Set(all.results.map((e) => e.action));
    for (const action of [
      "company.create",
      "company.update",
      "user.create",
      "user.update",
      "user.move",
      "user.reset_password",
      "dictionary.change",
    ]) {
      expect(actions, action).toContain(action);
    }
    const second = await ok<Audit>(await get("/api/v1/admin/audit/?limit=2&offset=2"));
    expect(second.count).toBe(all.count);
    expect(second.results.map((e) => e.at)).toEqual(times.slice(2, 4));
    expect(JSON.stringify(all)).not.toMatch(/password_hash|scrypt\$/);
    expect((await get("/api/v1/admin/audit/?limit=1000")).status).toBe(400);
  });
});
