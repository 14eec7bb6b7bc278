// The report on implementation of a climate period (GET/PATCH v1/climate-projects/{id}/periods/{p}/report/,
// methodology 13.4, D80) on the in-process API, from section 13.5 (a) stored as a
// project and period: sections 1–15 in Order 248's order with what the platform fills and the
// executor's fields; those are written with the version read (stale: 409), logged, and refused for
// another company (404); the PDF read back with pdftotext and the xlsx with LibreOffice hold every
// figure the screen shows, each inside its own section, the sections in order.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@server/domain/company/users";
import type { ClimateReport } from "@server/domain/climate/report-content";
import { CLIMATE_REPORT_HAND_KEYS } from "@server/contract/schemas/climate-report";
import { caseAPeriod, type CaseAPeriod } from "../support/climate-case-a";
import { createHarness, type Harness } from "../support/harness";
import { signIn } from "../support/admin";
import { xlsToCsv } from "../support/libreoffice";
import { fieldName } from "@server/contract/field-names";

let h: Harness;
let staff: { token: string; companyId: string };
let other: string;
let a: CaseAPeriod;
let path: string;

const report = (token: string, query = "", init: { method?: string; json?: unknown } = {}) =>
  h.request(`${path}${query}`, { token, ...init });

beforeAll(async () => {
  h = await createHarness();
  staff = await h.signedInUser("ООО «Шахта Климат»");
  other = (await h.signedInUser("Другая компания отчета")).token;
  const company = (await h.deps.repos.companies.get(staff.companyId))!;
  await h.deps.repos.companies.replace(
    {
      ...company,
      ogrn: "1234567890123",
      inn: "4205000000",
      kpp: "420501001",
      region: "Кемеровская область — Кузбасс",
      postal_address: "650000, г. Кемерово, ул. Весенняя, 5",
      version: (company.version ?? 0) + 1,
    },
    company.version ?? 0,
  );
  a = await caseAPeriod(h, staff.token);
  path = `/api/v1/climate-projects/${a.project.id}/periods/${a.period.id}/report/`;
});
afterAll(() => h.close());

/** Every text the screen shows of the report, section by section, in order. */
function shown(r: ClimateReport): { number: number; title: string; texts: string[] }[] {
  return r.sections.map((s) => ({
    number: s.number,
    title: `${s.number}. ${s.title}`,
    texts: [
      ...s.filled.flatMap((i) => [i.label, i.value]),
      ...s.tables.flatMap((t) => [t.title, ...t.rows.flat()]),
      ...s.hand.flatMap((f) => [f.label, f.text || "заполняется исполнителем"]),
    ],
  }));
}

const flat = (text: string) => text.replace(/\s+/g, " ").trim();
/** A figure as the screen writes it: «15,588», «6», «01.06.2026», «0,5». */
const isFigure = (text: string) => /^[\d\s.,:–-]+$/.test(text) && /\d/.test(text);

describe("GET …/periods/{p}/report/", () => {
  it("answers sections 1–15 in Order 248's order: what the platform fills from the period and the executor's fields, empty", async () => {
    const res = await report(staff.token);
    expect(res.status, await res.clone().text()).toBe(200);
    const r = (await res.json()) as ClimateReport;
    expect(r.sections.map((s) => s.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    expect(r.sections.map((s) => s.title).slice(0, 3)).toEqual([
      "Общие сведения о климатическом проекте",
      "Краткое описание климатического проекта",
      "Соответствие критериям отнесения к климатическим проектам",
    ]);
    expect(r.sections[14].title).toBe("План сбора первичных данных (план мониторинга)");
    expect(r).toMatchObject({ version: 0, updated_at: null, empty_hand: CLIMATE_REPORT_HAND_KEYS.length });
    // Dated on the company's clock (the harness's clock is its own now; the date is the +7 calendar's).
    expect(r.issued).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
    const item = (n: number, label: string) => r.sections[n - 1].filled.find((i) => i.label === label)?.value;
    expect(item(1, "Исполнитель")).toBe("ООО «Шахта Климат»");
    expect(item(1, "ОГРН")).toBe("1234567890123");
    expect(item(1, "ИНН")).toBe("4205000000");
    expect(item(1, "КПП")).toBe("420501001");
    expect(item(1, "Отчетный период (время компании)")).toBe("01.06.2026 00:00 – 01.06.2026 06:00 (6 ч)");
    expect(item(1, "Правила платформы (методика)")).toBe("2026.7");
    expect(item(6, "Адрес площадки")).toBe("г. Воркута, ул. Шахтерская, 1");
    expect(item(7, "Версия методологии")).toBe("08.0");
    expect(item(7, "Инструменты")).toBe("TOOL06 «Project emissions from flaring», версия 04.0");
    // Section 13.5 (a): 15,588375 t CO2-eq printed with 3 decimals, 15 units (D78).
    expect(item(13, "Сокращение выбросов ER, т CO2-экв.")).toBe("15,588");
    expect(item(13, "Углеродные единицы к выпуску")).toBe("15");
    expect(item(9, "Базовые выбросы BE, т CO2-экв.")).toBe("43,902");
    expect(item(2, "Метан, направленный на устройства в периоде, т")).toBe("1,756");
    // The deviations with their rules: hour 04 without data, hour 02 not proven, the default for 4 hours.
    const deviations = r.sections[9].tables[0].rows;
    expect(deviations.map((row) => [row[1], row[2], row[3], row[5]])).toEqual(
      expect.arrayContaining([
        ["01.06.2026 04:00 – 04:59", "нет данных", "1", "D71"],
        ["01.06.2026 02:00 – 02:59", "уничтожение не подтверждено", "1", "D72, D73"],
        ["весь период", "значение по умолчанию", "4", "D72, D73"],
      ]),
    );
    expect(deviations.find((row) => row[2] === "нет данных")?.[4]).toBe("нет измерений: расход газовоздушной смеси 25 мин");
    // The monitoring plan: each meter with its kind, range and dates of verification.
    const register = r.sections[14].tables[0].rows;
    expect(register.find((row) => row[2] === "Q-A")).toEqual([
      "расход газовоздушной смеси",
      "Ф-1",
      "Q-A",
      "Расход газовой смеси",
      expect.any(String),
      expect.any(String),
      "нормальные условия (0 °C)",
      "15.01.2026",
      "14.01.2027",
    ]);
    const minutes = r.sections[14].tables[1].rows;
    expect(minutes.find((row) => row[2] === "Q-A")).toEqual(["Ф-1", "расход газовоздушной смеси", "Q-A", "335", "0", "25"]);
    // The executor's fields: in sections 1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 14, 15, none in 7, 8, 13.
    expect(r.sections.filter((s) => s.hand.length > 0).map((s) => s.number)).toEqual([1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 14, 15]);
    expect(r.sections.flatMap((s) => s.hand).every((f) => f.text === "")).toBe(true);
  });

  it("answers another company 404 for the report, its files and its fields, and a format it does not know 400", async () => {
    for (const query of ["", "?format=pdf", "?format=xlsx"]) {
      const res = await report(other, query);
      expect(res.status, query).toBe(404);
      expect(((await res.json()) as { detail: string }).detail).toBe("Климатический проект не найден");
    }
    const patch = await report(other, "", { method: "PATCH", json: { fields: { s2_description: "Взлом" }, version: 0 } });
    expect(patch.status).toBe(404);
    const missing = await h.request(`/api/v1/climate-projects/${a.project.id}/periods/0190a0a0-0000-7000-8000-000000000000/report/`, {
      token: staff.token,
    });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { detail: string }).detail).toBe("Отчетный период не найден");
    const docx = await report(staff.token, "?format=docx");
    expect(docx.status).toBe(400);
    expect(((await docx.json()) as { detail: string }).detail).toMatch(/Формат: ожидается xlsx или pdf/);
  });
});

describe("PATCH …/periods/{p}/report/", () => {
  it("writes the executor's fields with the version read, refuses a stale one (409) and keeps them with the period, logged", async () => {
    const first = await report(staff.token, "", {
      method: "PATCH",
      json: {
        fields: { s2_description: "  Уничтожение метана дегазации на открытом факеле Ф-1.  ", s14_consultations: "не проводились" },
        version: 0,
      },
    });
    expect(first.status, await first.clone().text()).toBe(200);
    const saved = (await first.json()) as ClimateReport;
    expect(saved).toMatchObject({ version: 1, empty_hand: CLIMATE_REPORT_HAND_KEYS.length - 2 });
    expect(saved.sections[1].hand[0]).toMatchObject({
      key: "s2_description",
      text: "Уничтожение метана дегазации на открытом факеле Ф-1.",
    });
    // Another user who read version 0 saves over it: refused.
    const stale = await report(staff.token, "", { method: "PATCH", json: { fields: { s2_description: "Другое" }, version: 0 } });
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { detail: string }).detail).toBe(
      "Отчет о реализации был изменен другим пользователем. Обновите страницу и повторите.",
    );
    const second = await report(staff.token, "", {
      method: "PATCH",
      json: { fields: { s4_registry_number: "КП-2026-0042" }, version: 1 },
    });
    expect(second.status).toBe(200);
    const read = (await (await report(staff.token)).json()) as ClimateReport;
    expect(read.version).toBe(2);
    expect(read.sections[0].filled.find((i) => i.label === "Номер в реестре углеродных единиц")?.value).toBe("КП-2026-0042");
    expect(read.sections[1].hand[0].text).toBe("Уничтожение метана дегазации на открытом факеле Ф-1.");
    expect(read.sections[13].hand[0].text).toBe("не проводились");

    // In the company's change log, each field by its section and name.
    const email = "reviewer-report@example.test";
    await createUser(h.deps, { companyId: staff.companyId, email, password: "reviewer-password", role: "reviewer" });
    const reviewer = ((await (await signIn(h, email, "reviewer-password")).json()) as { access: string }).access;
    const log = (await (await h.request("/api/v1/users/company/audit/?limit=50&offset=0", { token: reviewer })).json()) as {
      results: {
        target_type: string;
        target_label: string;
        created: boolean;
        changes: { label: string; before: string; after: string }[];
      }[];
    };
    const entries = log.results.filter((e) => e.target_type === "climate_report");
    expect(entries.map((e) => e.created)).toEqual([false, true]);
    expect(entries[0].target_label).toBe("«Факельная установка Ф-1», 01.06.2026 00:00 – 01.06.2026 06:00");
    expect(entries[0].changes).toEqual([
      { field: "s4_registry_number", label: "Раздел 4. Номер проекта в реестре углеродных единиц", before: "", after: "КП-2026-0042" },
    ]);
    expect(entries[1].changes.map((c) => c.label)).toEqual([
      "Раздел 2. Описание климатического проекта и его цели",
      "Раздел 14. Консультации с экспертами (или «не проводились»)",
    ]);
  });

  it("refuses an unknown field, a text too long, a field not text and no version with 400 naming it", async () => {
    const cases: [unknown, RegExp][] = [
      [{ fields: { s99_other: "x" }, version: 2 }, new RegExp(`^${fieldName("fields")}: нет такого поля в отчете: s99_other$`)],
      [
        { fields: { s2_description: "x".repeat(10_001) }, version: 2 },
        new RegExp(`^${fieldName("fields.s2_description")}: не длиннее 10000 символов$`),
      ],
      [{ fields: { s2_description: 5 }, version: 2 }, new RegExp(`^${fieldName("fields.s2_description")}: ожидается текст$`)],
      [{ fields: { s2_description: "x" } }, /^Версия: ожидается целое число$/],
      [{ fields: {}, version: 2, extra: 1 }, /^extra: такого поля нет в запросе$/],
    ];
    for (const [json, detail] of cases) {
      const res = await report(staff.token, "", { method: "PATCH", json });
      expect(res.status, JSON.stringify(json).slice(0, 80)).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toMatch(detail);
    }
  });
});

describe("the report's files", () => {
  let r: ClimateReport;
  beforeAll(async () => {
    r = (await (await report(staff.token)).json()) as ClimateReport;
  });

  /** Each section's title found in order in `text`, and each of its texts (every figure at least)
   *  between its title and the next's. */
  function inOrder(text: string, texts: (t: string) => boolean, shownAs: (t: string) => string = (t) => t) {
    const sections = shown(r);
    const at = sections.map((s) => text.indexOf(flat(s.title)));
    expect(
      at.every((i) => i >= 0),
      `titles: ${at.join(", ")}`,
    ).toBe(true);
    expect([...at].sort((x, y) => x - y)).toEqual(at);
    sections.forEach((s, i) => {
      const part = text.slice(at[i], i + 1 < at.length ? at[i + 1] : undefined);
      for (const t of s.texts.filter(texts)) expect(part, `section ${s.number}: «${t}»`).toContain(flat(shownAs(t)));
    });
  }

  it("the PDF reads back with pdftotext: every section in order, every figure and field inside its own section", async () => {
    const res = await report(staff.token, "?format=pdf");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toContain(encodeURIComponent("Отчет о реализации"));
    const file = join(mkdtempSync(join(tmpdir(), "climate-report-")), "r.pdf");
    writeFileSync(file, new Uint8Array(await res.arrayBuffer()));
    const out = spawnSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" });
    expect(out.status, out.stderr).toBe(0);
    const text = flat(out.stdout);
    expect(text).toContain(flat(r.title));
    expect(text).toContain(`Дата составления: ${r.issued}`);
    // Items are lines of their own: each label and value; table cells may wrap, so their figures.
    inOrder(text, (t) => isFigure(t) || r.sections.some((s) => s.filled.some((i) => i.value === t || i.label === t)));
    expect(text).toContain("Уничтожение метана дегазации на открытом факеле Ф-1.");
    expect(text).toContain("КП-2026-0042");
    expect(text.split("заполняется исполнителем").length - 1).toBeGreaterThanOrEqual(CLIMATE_REPORT_HAND_KEYS.length);
  });

  it("the xlsx reads back with LibreOffice: every text of every section, in the section's rows, the sections in order", async () => {
    const res = await report(staff.token, "?format=xlsx");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    const sheets = xlsToCsv(new Uint8Array(await res.arrayBuffer()));
    const csv = [...sheets.values()][0];
    expect(csv).toBeDefined();
    // each figure is a number with a grouped format of its decimals, which LibreOffice's
    // CSV (English locale) shows as «4,563.274»; a text would have kept the Russian «4 563,274».
    const asNumber = (t: string) => {
      const m = /^(-?\d{1,3}(?:[ \u00a0\u202f]\d{3})*)(?:,(\d+))?$/.exec(t);
      if (!m) return t;
      const whole = m[1].replace(/[ \u00a0\u202f]/g, "").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
      return m[2] ? `${whole}.${m[2]}` : whole;
    };
    inOrder(flat(csv.replace(/"/g, "")), (t) => !t.includes('"'), asNumber);
    expect(csv).toContain(`"Метан, направленный на устройства в периоде, т",1.756`);
  }, 180_000);
});
