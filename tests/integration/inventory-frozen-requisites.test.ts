// D32: an approval freezes the legal entity it prints. Version 1's snapshot holds the requisites,
// the person responsible and the facilities as they were at approval, under its hash; after staff
// change ИНН and the person responsible on Профиль, version 1's passport (PDF text and xlsx cells)
// still prints the approved ones under the same hash, and version 2, approved after, prints the new
// ones. `?version=n` prints any approved version; a version not approved is 404, a malformed one 400.
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@server/domain/company/users";
import { signIn } from "../support/admin";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let staff: string;
let reviewer: string;
let other: string;
let facility: { id: string; version: number };

type Version = { version: number; sha256: string };

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const act = async (token: string, action: string, extra: Record<string, unknown> = {}) => {
  const { review } = await json<{ review: { version: number } }>(await h.request("/api/v1/inventory/?year=2024", { token: staff }), 200);
  return json(
    await h.request("/api/v1/inventory/2024/review/", { method: "POST", token, json: { action, version: review.version, ...extra } }),
    200,
  );
};
const patchCompany = (body: unknown) => h.request("/api/v1/users/company/", { method: "PATCH", token: staff, json: body });
const versions = async () => json<Version[]>(await h.request("/api/v1/inventory/2024/versions/", { token: staff }), 200);

async function report(format: "pdf" | "xlsx", version?: number): Promise<Uint8Array> {
  const query = version === undefined ? "" : `&version=${version}`;
  const res = await h.request(`/api/v1/inventory/2024/report/?format=${format}${query}`, { token: staff });
  expect(res.status, res.status === 200 ? "" : await res.clone().text()).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

async function pdfText(version?: number): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), "passport-")), "passport.pdf");
  writeFileSync(file, await report("pdf", version));
  const out = spawnSync("pdftotext", ["-layout", "-enc", "UTF-8", file, "-"], { encoding: "utf8" });
  expect(out.status, out.stderr).toBe(0);
  return out.stdout.replace(/[ \u00a0\u202f]+/g, " ");
}

/** The «Паспорт» sheet as label → value. */
async function passportCells(version?: number): Promise<Map<string, string>> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await report("xlsx", version)) as unknown as ArrayBuffer);
  const cells = new Map<string, string>();
  workbook.worksheets[0].eachRow((row) => {
    const [label, value] = (row.values as unknown[]).slice(1);
    if (typeof label === "string" && value !== undefined && !cells.has(label)) cells.set(label, String(value));
  });
  return cells;
}

const OLD = { inn: "7707083893", responsible_name: "Иванова Анна Петровна", responsible_position: "Главный эколог" };
const NEW = { inn: "7728168971", responsible_name: "Петров Сергей Ильич", responsible_position: "Начальник отдела экологии" };

beforeAll(async () => {
  h = await createHarness();
  const a = await h.signedInUser("ООО «Реквизиты»");
  staff = a.token;
  ({ token: other } = await h.signedInUser("ООО Чужая"));
  await createUser(h.deps, {
    companyId: a.companyId,
    email: "reviewer@requisites.example",
    password: "reviewer-password",
    role: "reviewer",
  });
  reviewer = ((await (await signIn(h, "reviewer@requisites.example", "reviewer-password")).json()) as { access: string }).access;
  await json(
    await patchCompany({ ...OLD, kpp: "773601003", ogrn: "1027700132195", okved: "05.10", postal_address: "г. Кемерово, ул. Шахтеров, 1" }),
    200,
  );
  facility = await json<{ id: string; version: number }>(
    await h.request("/api/v1/facilities/", { method: "POST", token: staff, json: { name: "Шахта «Южная»", kind: "underground_mine" } }),
    201,
  );
  await json(
    await h.request(`/api/v1/facilities/${facility.id}/points/`, {
      method: "POST",
      token: staff,
      json: { name: "Факельная установка № 1", kind: "flare", instrument: "Расходомер ДРГ.М-2500", frequency: "непрерывно" },
    }),
    201,
  );
  const project = await json<{ id: string }>(
    await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token: staff,
      json: { name: "Южная 2024", start_date: "2024-01-01", end_date: "2024-12-31", facility: facility.id },
    }),
    201,
  );
  await json(
    await h.request("/api/v1/torch_ch4/", {
      method: "POST",
      token: staff,
      json: { name: "Факел", project: project.id, volume: 700, koef_transform: 0.67, inventory_role: "primary" },
    }),
    201,
  );
  await act(staff, "send_to_review");
  await act(reviewer, "approve");
});
afterAll(() => h.close());

describe("an approved version's legal entity", () => {
  let approved: Version;

  it("is in the snapshot under its hash: requisites, the person responsible and the facilities as at approval", async () => {
    [approved] = await versions();
    const text = await (await h.request("/api/v1/inventory/2024/versions/1/", { token: staff })).text();
    expect(createHash("sha256").update(text, "utf8").digest("hex")).toBe(approved.sha256);
    const snapshot = JSON.parse(text) as {
      approved_at: string;
      legal_entity: { requisites: Record<string, string>; facilities: unknown[]; points: unknown[] };
    };
    expect(snapshot.legal_entity.requisites).toMatchObject({
      name: "ООО «Реквизиты»",
      ...OLD,
      kpp: "773601003",
      ogrn: "1027700132195",
      okved: "05.10",
      postal_address: "г. Кемерово, ул. Шахтеров, 1",
    });
    expect(snapshot.legal_entity.facilities).toEqual([
      { id: expect.any(String), name: "Шахта «Южная»", kind: "underground_mine", licence_number: "", address: "" },
    ]);
    // D25: the facilities' emission points with their instruments and frequencies.
    expect(snapshot.legal_entity.points).toContainEqual(
      expect.objectContaining({
        name: "Факельная установка № 1",
        kind: "flare",
        instrument: "Расходомер ДРГ.М-2500",
        frequency: "непрерывно",
      }),
    );
  });

  it("stays printed by version 1's passport, PDF and xlsx, after ИНН and the person responsible change", async () => {
    await json(await patchCompany(NEW), 200);
    for (const version of [undefined, 1]) {
      const pdf = await pdfText(version);
      expect(pdf).toContain(`ИНН ${OLD.inn}`);
      expect(pdf).toContain(OLD.responsible_name);
      expect(pdf).toContain(OLD.responsible_position);
      expect(pdf).not.toContain(NEW.inn);
      expect(pdf).not.toContain(NEW.responsible_name);
      expect(pdf).toContain(approved.sha256);
      const cells = await passportCells(version);
      expect(cells.get("ИНН")).toBe(OLD.inn);
      expect(cells.get("ФИО")).toBe(OLD.responsible_name);
      expect(cells.get("Должность")).toBe(OLD.responsible_position);
      expect(cells.get("SHA-256 версии")).toBe(approved.sha256);
    }
    expect(await versions()).toEqual([expect.objectContaining({ version: 1, sha256: approved.sha256 })]);
  });

  it("version 2, approved after the change, prints the new ones; version 1 still the old", async () => {
    await act(reviewer, "reopen", { reason: "новый ответственный" });
    await act(staff, "send_to_review");
    await act(reviewer, "approve");
    const [first, second] = await versions();
    expect(first).toEqual(expect.objectContaining({ version: 1, sha256: approved.sha256 }));
    expect(second.version).toBe(2);
    expect(second.sha256).not.toBe(approved.sha256);

    const latest = await pdfText();
    expect(latest).toContain(`ИНН ${NEW.inn}`);
    expect(latest).toContain(NEW.responsible_name);
    expect(latest).toContain(second.sha256);
    expect((await passportCells(2)).get("ИНН")).toBe(NEW.inn);
    expect((await passportCells(2)).get("ФИО")).toBe(NEW.responsible_name);

    const first1 = await pdfText(1);
    expect(first1).toContain(`ИНН ${OLD.inn}`);
    expect(first1).toContain(OLD.responsible_name);
    expect(first1).toContain(approved.sha256);
    expect((await passportCells(1)).get("ИНН")).toBe(OLD.inn);
  });

  it("a version not approved is 404, a malformed one 400, another company's 404", async () => {
    const missing = await h.request("/api/v1/inventory/2024/report/?format=pdf&version=3", { token: staff });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { detail: string }).detail).toBe("Версия 3 инвентаризации 2024 года не найдена");
    for (const bad of ["0", "-1", "1.5", "x"]) {
      const res = await h.request(`/api/v1/inventory/2024/report/?format=pdf&version=${bad}`, { token: staff });
      expect(res.status, bad).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/^Версия: /);
    }
    const foreign = await h.request("/api/v1/inventory/2024/report/?format=pdf&version=1", { token: other });
    expect(foreign.status).toBe(404);
  });
});

describe("a facility of the approved year", () => {
  it("is not archived (409 naming the year), as docs/security.md says, and stays active", async () => {
    const res = await h.request(`/api/v1/facilities/${facility.id}/`, {
      method: "PATCH",
      token: staff,
      json: { is_active: false, version: facility.version },
    });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { detail: string }).detail).toMatch(
      /^Инвентаризация 2024 года утверждена и заморожена .*площадку, проекты которой входят в этот год, нельзя отправить в архив/,
    );
    const stored = await json<Array<{ id: string; is_active: boolean; version: number }>>(
      await h.request("/api/v1/facilities/", { token: staff }),
      200,
    );
    expect(stored.find((f) => f.id === facility.id)).toMatchObject({ is_active: true, version: facility.version });
  });
});
