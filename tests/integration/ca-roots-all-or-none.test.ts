// a CA-roots file that would cross the cap of 100 is refused whole — none of its
// certificates stored — instead of storing those that fit and answering 400 (96 of one such file were
// kept). Item 7: a CA's subject is stored without bidi, zero-width and control characters, a long one
// cut with «…». A fresh table: the loaded CA certificates are platform-wide.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "@server/contract/schemas/limits";
import { TRUST_ROOTS_COUNTER } from "@server/domain/climate/trust-roots";
import { signedInAdmin } from "../support/admin";
import { createFreshHarness, type Harness } from "../support/harness";
import { dropSigner, gostCertificate, requireGostEngine, type GostSigner } from "../support/gost";

let h: Harness;
let admin: string;
const cas: GostSigner[] = [];

beforeAll(async () => {
  requireGostEngine();
  h = await createFreshHarness();
  admin = (await signedInAdmin(h)).token;
  for (let n = 0; n < 3; n++) cas.push(gostCertificate({ subject: `/CN=УЦ ${n}/O=АО «УЦ ${n}»`, days: 3650, ca: true }));
}, 60_000);
afterAll(async () => {
  for (const ca of cas) dropSigner(ca);
  await h?.close();
});

const upload = (pems: string[]) => {
  const body = new FormData();
  body.append("file_data", new Blob([pems.join("\n")]), "roots.pem");
  return h.request("/api/v1/admin/ca-roots/", { method: "POST", token: admin, body });
};
const count = async () => ((await (await h.request("/api/v1/admin/ca-roots/", { token: admin })).json()) as { count: number }).count;

describe("a CA's names under the text rules", () => {
  it("stores a subject with bidi, zero-width and control characters stripped, a long one cut with a mark", async () => {
    const units = Array.from({ length: 60 }, (_, i) => `/OU=Подразделение удостоверяющего центра номер ${i}`).join("");
    const ca = gostCertificate({ subject: `/CN=УЦ\u202Eлив\u2066\u200B\u200F\u001b[31mX/O=АО «УЦ»${units}`, days: 3650, ca: true });
    cas.push(ca);
    const res = await upload([ca.pem]);
    expect(res.status, await res.clone().text()).toBe(201);
    const [root] = ((await res.json()) as { results: Array<{ id: string; subject: string }> }).results;
    expect(root.subject).toMatch(/^CN=УЦлив\[31mX, O=АО «УЦ», OU=Подразделение/);
    expect(root.subject).not.toMatch(/[\u0000-\u001F\u200B-\u200F\u202A-\u202E\u2066-\u2069]/);
    expect(Array.from(root.subject)).toHaveLength(255);
    expect(root.subject.endsWith("…")).toBe(true);
    expect((await h.request(`/api/v1/admin/ca-roots/${root.id}/`, { method: "DELETE", token: admin })).status).toBe(200);
  });
});

describe("CA roots: all of a file or none", () => {
  it("a file crossing the cap stores none of its certificates; one that fits stores all", async () => {
    const [first] = (await h.deps.repos.trustRoots.list()).concat();
    expect(first).toBeUndefined();
    // The cap less two, as loaded before.
    const cap = LIMITS.climate.trustRoots;
    const now = new Date().toISOString();
    for (let n = 0; n < cap - 2; n++) {
      await h.deps.repos.trustRoots.add({
        id: n.toString(16).padStart(64, "0"),
        subject: `CN=Прежний УЦ ${n}`,
        issuer: `CN=Прежний УЦ ${n}`,
        valid_from: now,
        valid_to: now,
        pem: cas[0].pem,
        created_at: now,
        created_by: "admin@example.com",
      });
    }
    const refused = await upload(cas.slice(0, 3).map((ca) => ca.pem));
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(
      /не более 100.*в файле 3 новых, можно добавить не более 2; ни один не загружен/,
    );
    expect(await count()).toBe(cap - 2);
    const fits = await upload(cas.slice(0, 2).map((ca) => ca.pem));
    expect(fits.status, await fits.clone().text()).toBe(201);
    expect(await count()).toBe(cap);
  });
});

describe("CA roots: the cap held by two administrators at once", () => {
  it("two files loaded at once, each fitting alone, store one of them: never past the cap", async () => {
    const cap = LIMITS.climate.trustRoots;
    // Two places left (the test above filled the cap): two seeded roots removed through the API.
    const listed = (await (await h.request("/api/v1/admin/ca-roots/", { token: admin })).json()) as { results: Array<{ id: string }> };
    for (const root of listed.results.slice(0, 2)) {
      expect((await h.request(`/api/v1/admin/ca-roots/${root.id}/`, { method: "DELETE", token: admin })).status).toBe(200);
    }
    expect(await count()).toBe(cap - 2);
    // The roots above were seeded past the domain: the counter as a server that loaded them itself holds it.
    const { company, cap: counter } = TRUST_ROOTS_COUNTER;
    await h.deps.repos.caps.give(company, counter, cap * 2);
    expect(await h.deps.repos.caps.take(company, counter, cap, async () => 0, cap - 2)).toBe(true);
    const more = Array.from({ length: 4 }, (_, n) => gostCertificate({ subject: `/CN=УЦ гонки ${n}`, days: 3650, ca: true }));
    cas.push(...more);
    const answers = await Promise.all([upload([more[0].pem, more[1].pem]), upload([more[2].pem, more[3].pem])]);
    expect(answers.map((res) => res.status).sort()).toEqual([201, 400]);
    expect(await count()).toBe(cap);
  }, 60_000);
});
