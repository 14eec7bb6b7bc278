// PATCH /api/v1/users/company/: a company's staff keep its name, contacts, ИНН, КПП, ОГРН, ОКВЭД and
// address on Профиль (docs/user-guide.md). The company is the session's; every change is in the admin change log
// with before → after; the platform admin keeps the same rights through /admin.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { signedInAdmin, type SignedIn } from "../support/admin";
import { updateOwnCompany } from "@server/domain/admin/companies";
import { fieldName } from "@server/contract/field-names";

let h: Harness;
let admin: SignedIn;
let staff: Awaited<ReturnType<Harness["signedInUser"]>>;
let other: Awaited<ReturnType<Harness["signedInUser"]>>;

beforeAll(async () => {
  h = await createHarness();
  admin = await signedInAdmin(h, "Оператор платформы");
  staff = await h.signedInUser("Шахта Северная");
  other = await h.signedInUser("Разрез Южный");
});
afterAll(() => h.close());

type Entry = { action: string; target_id: string; actor_email: string; before: any; after: any };

const patch = (json: unknown, token = staff.token) => h.request("/api/v1/users/company/", { method: "PATCH", token, json });
const me = async (token: string) => ((await (await h.request("/api/v1/users/get_me/", { token })).json()) as { company: any }).company;
const audit = async () =>
  ((await (await h.request("/api/v1/admin/audit/?limit=100&offset=0", { token: admin.token })).json()) as { results: Entry[] }).results;

describe("the company's own requisites", () => {
  it("lets staff edit ИНН, КПП, ОГРН, ОКВЭД and address, and logs before → after", async () => {
    const before = await me(staff.token);
    const res = await patch({
      inn: "7707083893",
      kpp: "773601001",
      ogrn: "1027700132195",
      okved: "05.10",
      postal_address: "г. Кемерово, ул. Шахтёров, 1",
      responsible_name: "Иванова Анна Петровна",
      responsible_phone: "+7 (3842) 12-34-56",
      version: before.version ?? 0,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const company = await me(staff.token);
    expect(company).toMatchObject({
      id: staff.companyId,
      name: "Шахта Северная",
      inn: "7707083893",
      kpp: "773601001",
      ogrn: "1027700132195",
      okved: "05.10",
      postal_address: "г. Кемерово, ул. Шахтёров, 1",
      version: (before.version ?? 0) + 1,
    });
    const entry = (await audit()).find((e) => e.target_id === staff.companyId && e.action === "company.update");
    expect(entry?.actor_email).toBe(staff.email);
    expect(entry?.before).toMatchObject({ inn: "", kpp: "", ogrn: "" });
    expect(entry?.after).toMatchObject({ inn: "7707083893", kpp: "773601001", responsible_name: "Иванова Анна Петровна" });
  });

  it("refuses a wrong ИНН with 400 and a Russian detail, and changes nothing", async () => {
    const res = await patch({ inn: "7707083894" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(
      new RegExp(`^${fieldName("inn")}: ИНН — 10 цифр .*контрольными цифрами`),
    );
    expect((await me(staff.token)).inn).toBe("7707083893");
  });

  it("refuses ИНН and КПП made of zeros, each named at its field", async () => {
    const res = await patch({ inn: "0000000000", kpp: "000000000", ogrn: "1027700132194" });
    expect(res.status).toBe(400);
    const { detail } = (await res.json()) as { detail: string };
    expect(detail.split("; ").map((part) => part.split(":")[0])).toEqual(["inn", "kpp", "ogrn"].map((field) => fieldName(field)));
    expect(detail).toContain(`${fieldName("inn")}: ИНН с кодом налогового органа 0000 не выдается`);
    expect((await patch({ inn: "000000000000" })).status).toBe(400);
    expect(await me(staff.token)).toMatchObject({ inn: "7707083893", kpp: "773601001" });
  });

  it("keeps ИНН, КПП and ОГРН once set: staff correct them but do not blank them", async () => {
    for (const field of ["inn", "kpp", "ogrn"] as const) {
      const res = await patch({ [field]: "  " });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toMatch(
        new RegExp(`^${fieldName(field)}: .* уже указан — его можно исправить, но не стереть`),
      );
    }
    expect(await me(staff.token)).toMatchObject({ inn: "7707083893", kpp: "773601001", ogrn: "1027700132195" });
    // What was never set may stay empty; what is not kept may be blanked.
    expect((await patch({ okved: "", inn: "7736050003" })).status).toBe(200);
    expect(await me(staff.token)).toMatchObject({ inn: "7736050003", okved: "" });
  });

  it("refuses a stale version with 409", async () => {
    const res = await patch({ kpp: "773601002", version: 0 });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/изменены другим пользователем/);
  });

  it("lets staff rename their company and change its e-mail and region, logged; another company's name is 409", async () => {
    const before = await me(staff.token);
    const res = await patch({ name: "  ООО «Шахта Северная-2»  ", email: "office@sever.example", region: "Кемеровская область — Кузбасс" });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await me(staff.token)).toMatchObject({
      name: "ООО «Шахта Северная-2»",
      email: "office@sever.example",
      region: "Кемеровская область — Кузбасс",
      version: before.version + 1,
    });
    const entry = (await audit()).find((e) => e.target_id === staff.companyId && e.after?.name === "ООО «Шахта Северная-2»");
    expect(entry).toMatchObject({ action: "company.update", actor_email: staff.email, before: { name: "Шахта Северная" } });
    const taken = await patch({ name: "разрез южный" });
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { detail: string }).detail).toBe("Компания «разрез южный» уже существует");
    // A name that only looks like another's is that name: another dash, a zero-width space, Latin letters.
    for (const twin of ["Разрез\u2010Южный", "Разрез Юж\u200bный", "Рaзрeз Южный"]) {
      const lookAlike = await patch({ name: twin });
      expect(lookAlike.status, twin).toBe(409);
      expect(((await lookAlike.json()) as { detail: string }).detail).toBe(`Компания «${twin}» уже существует`);
    }
    for (const [json, detail] of [
      [{ name: "   " }, /^Название: укажите название компании/],
      [{ email: "office@" }, new RegExp(`^${fieldName("email")}: Укажите корректный e-mail`)],
    ] as const) {
      const refused = await patch(json);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { detail: string }).detail).toMatch(detail);
    }
    expect(await me(staff.token)).toMatchObject({ name: "ООО «Шахта Северная-2»", email: "office@sever.example" });
    expect((await patch({ name: "Шахта Северная" })).status).toBe(200);
  });

  it("never reaches another company: a company named in the body is ignored, /admin is 403, a missing one 404", async () => {
    const res = await patch({ id: other.companyId, company: other.companyId, name: "Захвачено", kpp: "420501001" });
    expect(res.status).toBe(200);
    expect(await me(other.token)).toMatchObject({ name: "Разрез Южный", kpp: "" });
    expect(await me(staff.token)).toMatchObject({ name: "Захвачено", kpp: "420501001" });
    const viaAdmin = await h.request(`/api/v1/admin/companies/${other.companyId}/`, {
      method: "PATCH",
      token: staff.token,
      json: { kpp: "420501001" },
    });
    expect(viaAdmin.status).toBe(403);
    await expect(
      updateOwnCompany(h.deps, { id: staff.userId, company: "missing", email: staff.email, role: "staff" }, { kpp: "420501001" }),
    ).rejects.toMatchObject({ kind: "not_found" });
  });

  it("leaves the platform admin the same rights through /admin", async () => {
    const res = await h.request(`/api/v1/admin/companies/${other.companyId}/`, {
      method: "PATCH",
      token: admin.token,
      json: { inn: "7707083893" },
    });
    expect(res.status).toBe(200);
    expect((await me(other.token)).inn).toBe("7707083893");
  });

  it("refuses another company's ИНН or ОГРН with its КПП (409, the other company unnamed); a branch's КПП is its own", async () => {
    const mine = await me(staff.token);
    const taken = await patch({ inn: mine.inn, kpp: mine.kpp }, other.token);
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { detail: string }).detail).toBe(
      `${fieldName("inn")}: ИНН ${mine.inn} с КПП ${mine.kpp} уже указан у другой организации на платформе — проверьте реквизиты или обратитесь к администратору платформы`,
    );
    const ogrn = await patch({ ogrn: mine.ogrn, kpp: mine.kpp }, other.token);
    expect(ogrn.status).toBe(409);
    expect(((await ogrn.json()) as { detail: string }).detail).toMatch(
      new RegExp(`^${fieldName("ogrn")}: ОГРН 1027700132195 с КПП \\d{9} уже указан у другой организации`),
    );
    expect(await me(other.token)).toMatchObject({ inn: "7707083893", kpp: "" });
    // A branch of the same legal entity: its ИНН under a КПП of its own.
    expect((await patch({ inn: mine.inn, kpp: "420502001" }, other.token)).status).toBe(200);
    expect(await me(other.token)).toMatchObject({ inn: mine.inn, kpp: "420502001" });
  });
});
