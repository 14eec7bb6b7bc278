// methodology section 14: the demo year's mine, measured against its estimate. Its row
// equals the year's calculations as GET v1/inventory/calculations/ lists them (the two measured
// calculations of the mining line; «Оценка по коэффициенту МГЭИК, для сравнения») to 1e-9, and its
// difference, verdict and implied factor are D82–D84's rule applied here by hand; its measured
// uncertainty is the year's uncertainty of the same gross line. A second mine whose December was
// never measured names it with the t it would carry. The xlsx holds numbers; the year approved, its
// pack carries comparison.json, which verify.py recomputes, and fails once a measured month is altered.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@server/domain/company/users";
import type { Actor } from "@server/domain/context";
import { canonicalJson } from "@server/domain/inventory/versions";
import type { MeasuredVsEstimated } from "@server/contract/schemas/measured-vs-estimated";
import { seedDemoYear } from "@server/demo-year";
import { signIn } from "../support/admin";
import { createHarness, type Harness } from "../support/harness";
import { inventoryCalculations } from "../support/inventory";

const year = new Date().getUTCFullYear() - 1;
let h: Harness;
let token: string;
let reviewer: string;
let demoMine: string;
let otherMine: string;
let ownFactorMine: string;
let estimateOnlyMine: string;
/** D107: the mine's own gas content, typed into each of 12 monthly estimates with one justification. */
const OWN_EF = 19.85;
const OWN_EF_WHY = "Газоносность пласта по пластовым испытаниям 2024 г., протокол № 5";
const OWN_MONTH_COAL = 100_000;
/** The shaft's measured CH4 of the year, t: between the bound of twelve independent factors and the grouped one. */
const OWN_MEASURED_T = 13_000;

async function json<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const post = (path: string, body: unknown, as = token) => h.request(`/api/v1/${path}`, { method: "POST", token: as, json: body });
const comparison = async () =>
  json<MeasuredVsEstimated>(await h.request(`/api/v1/inventory/measured-vs-estimated/?year=${year}`, { token }));
const close = (actual: number | null | undefined, expected: number, what = "") =>
  expect(Math.abs((actual ?? Number.NaN) - expected), `${what}: ${actual} ≠ ${expected}`).toBeLessThanOrEqual(1e-9 * Math.abs(expected));
const pad = (n: number) => String(n).padStart(2, "0");
const lastDay = (m: number) => new Date(Date.UTC(year, m, 0)).getUTCDate();

beforeAll(async () => {
  h = await createHarness();
  const a = await h.signedInUser("ООО «Сравнение»");
  token = a.token;
  const actor: Actor = { id: a.userId, company: a.companyId, email: a.email, role: "staff" } as Actor;
  await seedDemoYear(h.deps, actor);
  await createUser(h.deps, { companyId: a.companyId, email: "reviewer@compare.example", password: "reviewer-password", role: "reviewer" });
  reviewer = ((await (await signIn(h, "reviewer@compare.example", "reviewer-password")).json()) as { access: string }).access;
  const facilities = await json<Array<{ id: string; name: string }>>(await h.request("/api/v1/facilities/", { token }));
  demoMine = facilities.find((f) => f.name === "Шахта «Демонстрационная»")!.id;

  // A second mine: its shaft measured January to November by periods, December never; an estimate kept for comparison.
  otherMine = (await json<{ id: string }>(await post("facilities/", { name: "Шахта «Без декабря»", kind: "underground_mine" }), 201)).id;
  const shaft = (
    await json<{ id: string }>(
      await post(`facilities/${otherMine}/points/`, {
        name: "Ствол № 3",
        kind: "ventilation_shaft",
        instrument: "АГК",
        frequency: "непрерывно",
      }),
      201,
    )
  ).id;
  const project = (
    await json<{ id: string }>(
      await post("projects/create_project/", {
        name: "Без декабря",
        start_date: `${year}-01-01`,
        end_date: `${year}-12-31`,
        facility: otherMine,
      }),
      201,
    )
  ).id;
  const periods = Array.from({ length: 11 }, (_, i) => ({
    from: `${year}-${pad(i + 1)}-01`,
    to: `${year}-${pad(i + 1)}-${lastDay(i + 1)}`,
    flow_m3_min: 1500,
    hours: lastDay(i + 1) * 24,
    w_ch4: 0.5,
    w_co2: 0.1,
  }));
  await json(
    await post("underground/", { name: "Ствол № 3", project, point: shaft, basis: "gross", periods, p_ch4: 0.668, p_co2: 1.8393 }),
    201,
  );
  await json(
    await post("underground_emission_ch4/", {
      name: "Оценка МГЭИК",
      project,
      volume: 900_000,
      inventory_role: "alternative",
      dictionary_items: { get_underground_emission_ch4: 1 },
    }),
    201,
  );

  // D107: a third mine whose 12 monthly estimates type the mine's own 19,85 m³/t ±10 % with one
  // justification, its shaft measured every month to 13 000 t in the year.
  ownFactorMine = (
    await json<{ id: string }>(await post("facilities/", { name: "Шахта «Своя газоносность»", kind: "underground_mine" }), 201)
  ).id;
  const ownShaft = (
    await json<{ id: string }>(
      await post(`facilities/${ownFactorMine}/points/`, {
        name: "Ствол № 1",
        kind: "ventilation_shaft",
        instrument: "АГК",
        frequency: "непрерывно",
      }),
      201,
    )
  ).id;
  const ownProject = (
    await json<{ id: string }>(
      await post("projects/create_project/", {
        name: "Своя газоносность",
        start_date: `${year}-01-01`,
        end_date: `${year}-12-31`,
        facility: ownFactorMine,
      }),
      201,
    )
  ).id;
  const yearHours = Array.from({ length: 12 }, (_, i) => lastDay(i + 1) * 24).reduce((a, b) => a + b, 0);
  // E = flow × hours × 60 / 1000 × w_CH4 × ρ / 100: the flow that gives 13 000 t at 0,5 % and 0,668 kg/m³.
  const flow = (OWN_MEASURED_T * 100 * 1000) / (yearHours * 60 * 0.5 * 0.668);
  await json(
    await post("underground/", {
      name: "Ствол № 1 (своя газоносность)",
      project: ownProject,
      point: ownShaft,
      basis: "gross",
      periods: Array.from({ length: 12 }, (_, i) => ({
        from: `${year}-${pad(i + 1)}-01`,
        to: `${year}-${pad(i + 1)}-${lastDay(i + 1)}`,
        flow_m3_min: flow,
        hours: lastDay(i + 1) * 24,
        w_ch4: 0.5,
        w_co2: 0.1,
      })),
      p_ch4: 0.668,
      p_co2: 1.8393,
    }),
    201,
  );
  for (let m = 1; m <= 12; m += 1) {
    await json(
      await post("underground_emission_ch4/", {
        name: `Оценка по своей газоносности, ${pad(m)}.${year}`,
        project: ownProject,
        volume: OWN_MONTH_COAL,
        ef: OWN_EF,
        dictionary_items: { get_underground_emission_ch4: null },
        justifications: { ef: OWN_EF_WHY },
        uncertainty: { ef: { lower_pct: 10, upper_pct: 10, distribution: "normal" } },
        period: { from: `${year}-${pad(m)}-01`, to: `${year}-${pad(m)}-${lastDay(m)}` },
        // Kept for comparison: the measured shaft is what the year counts (primary, they would duplicate it, D43).
        inventory_role: "alternative",
      }),
      201,
    );
  }
  // A mine that estimates only: three monthly estimates at the same typed value count in the year's line.
  estimateOnlyMine = (await json<{ id: string }>(await post("facilities/", { name: "Северная", kind: "underground_mine" }), 201)).id;
  const estimateProject = (
    await json<{ id: string }>(
      await post("projects/create_project/", {
        name: "Северная",
        start_date: `${year}-01-01`,
        end_date: `${year}-12-31`,
        facility: estimateOnlyMine,
      }),
      201,
    )
  ).id;
  for (let m = 1; m <= 3; m += 1) {
    await json(
      await post("underground_emission_ch4/", {
        name: `Оценка «Северной», ${pad(m)}.${year}`,
        project: estimateProject,
        volume: OWN_MONTH_COAL,
        ef: OWN_EF,
        dictionary_items: { get_underground_emission_ch4: null },
        justifications: { ef: OWN_EF_WHY },
        uncertainty: { ef: { lower_pct: 10, upper_pct: 10, distribution: "normal" } },
        period: { from: `${year}-${pad(m)}-01`, to: `${year}-${pad(m)}-${lastDay(m)}` },
      }),
      201,
    );
  }
}, 240_000);
afterAll(() => h.close());

describe("the demo year's mine, measured against estimated", () => {
  it("equals the year's calculations as GET v1/inventory/calculations/ lists them, by D82–D84's rule", async () => {
    const answer = await comparison();
    expect(answer.approved_version).toBeNull();
    const row = answer.facilities.find((f) => f.facility === demoMine)!;
    expect(row.facility_name).toBe("Шахта «Демонстрационная»");
    const listed = await inventoryCalculations(h, token, year, { facility: demoMine, line: "3|1.B.1.a.i.1|CH4" });
    const ch4 = (name: string) => listed.find((c) => c.name === name)!.gases.find((g) => g.gas === "CH4")!.t;
    const measured = ch4("Вентиляционный ствол № 2, исходящая струя") + ch4("Дегазационная установка, каптированный газ");
    const estimated = ch4("Оценка по коэффициенту МГЭИК, для сравнения");
    close(row.measured.ch4_t, measured, "measured");
    expect(row.measured.calculations).toHaveLength(2);
    close(row.estimated!.ch4_t, estimated, "estimated");
    expect(row.estimated).toMatchObject({ role: "alternative", ef: 18, monthly_basis: "days" });
    expect(row.coal_t).toBe(2_400_000);
    // By hand: D84's combined half-width and verdict, D83's factor at 0,67 kg/m³.
    const combined = Math.hypot((row.measured.u_pct * measured) / 100, (row.estimated!.u_pct * estimated) / 100);
    close(row.difference_t, measured - estimated, "difference");
    close(row.difference_pct, (100 * (measured - estimated)) / estimated, "difference %");
    close(row.combined_t, combined, "combined");
    expect(row.consistent).toBe(Math.abs(measured - estimated) <= combined);
    close(row.implied_ef_m3_per_t, (measured * 1000) / (2_400_000 * 0.67), "implied factor");
    // The months add up to the year; every month measured at both points, nothing missing.
    close(
      row.measured.months.reduce((s, m) => s + (m.ch4_t ?? 0), 0),
      measured,
      "months",
    );
    expect(row.measured.months.every((m) => m.points.length === 2 && m.source === "periods")).toBe(true);
    expect(row.explanations.filter((e) => e.kind === "month_missing")).toEqual([]);
    expect(row.explanations.map((e) => e.kind)).toContain("drained_balance");
    // D93: every month measured at both points: the whole year is compared, and with no month
    // missing the −77,7 % is said in words to rest on the factor.
    expect(row.scope).toBe("year");
    expect(row.measured.coverage.months).toBe(12);
    expect(row.verdict_reason).toBeNull();
    const factor = row.explanations.find((e) => e.kind === "factor")!;
    expect(factor.text).toContain("(−77,7 %) за все 12 месяцев, измеренных на всех источниках");
    expect(factor.text).toContain(
      `ее объясняет коэффициент — измеренный метан соответствует ≈ ${(Math.round(row.implied_ef_m3_per_t! * 10) / 10).toLocaleString("ru-RU")} м³ на тонну угля против 18 м³/т оценки`,
    );
    // the demo's shaft and drainage station have channels of their own.
    expect(row.explanations.filter((e) => e.kind === "no_channels")).toEqual([]);
    // D82: the measured side's uncertainty is the year's uncertainty of the same gross line.
    const u = await json<{ lines: Array<{ ipcc_code: string; gas: string; ad_u: number; ef_u: number }> }>(
      await h.request(`/api/v1/inventory/uncertainty/?year=${year}&facility=${demoMine}`, { token }),
    );
    const line = u.lines.find((l) => l.ipcc_code === "1.B.1.a.i.1" && l.gas === "CH4")!;
    close(row.measured.u_pct, Math.hypot(line.ad_u, line.ef_u), "u_pct");
    expect(row.measured.u_pct).toBeGreaterThan(0);
    expect(row.estimated!.u_pct).toBeGreaterThan(row.measured.u_pct);
  }, 60_000);

  it("names the month a mine did not measure, with the t it would carry at its measured rate", async () => {
    const row = (await comparison()).facilities.find((f) => f.facility === otherMine)!;
    expect(row.measured.months[11]).toMatchObject({ month: `${year}-12`, ch4_t: null });
    const missing = row.explanations.filter((e) => e.kind === "month_missing");
    expect(missing.map((e) => e.month)).toEqual([`${year}-12`]);
    const hours = Array.from({ length: 11 }, (_, i) => lastDay(i + 1) * 24).reduce((s, x) => s + x, 0);
    close(missing[0].t, (row.measured.ch4_t / hours) * 31 * 24, "December");
    // No sensor in its register: the shaft has no channel of its own.
    expect(row.explanations.find((e) => e.kind === "no_channels")?.text).toContain(
      "«Ствол № 3», вентиляционный ствол (вентилятор): нет своего канала АГК",
    );
    expect(missing[0].text).toMatch(
      new RegExp(`«Ствол № 3», 12\\.${year}: нет измерения или месяц не принят — при измеренном за год темпе источника ≈ [\\d  ,]+ т CH4`),
    );
  }, 60_000);

  it("gives the same as a workbook whose figures are numbers", async () => {
    const res = await h.request(`/api/v1/inventory/measured-vs-estimated/?year=${year}&facility=${demoMine}&format=xlsx`, { token });
    expect(res.status, res.status === 200 ? "" : await res.clone().text()).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
    const sheet = book.getWorksheet("Сравнение")!;
    const row = (await comparison()).facilities.find((f) => f.facility === demoMine)!;
    const figures = sheet.getRow(3);
    expect(figures.getCell(1).value).toBe("Шахта «Демонстрационная»");
    expect(typeof figures.getCell(2).value).toBe("number");
    close(figures.getCell(2).value as number, row.measured.ch4_t, "xlsx measured");
    close(figures.getCell(4).value as number, row.estimated!.ch4_t, "xlsx estimated");
    expect(book.getWorksheet("По месяцам")!.rowCount).toBe(2 + 12);
    // D93: the months compared and what they hold, as numbers.
    expect(figures.getCell(14).value).toBe(12);
    close(figures.getCell(16).value as number, row.compared!.measured_ch4_t, "xlsx compared measured");
    close(figures.getCell(17).value as number, row.compared!.estimated_ch4_t, "xlsx compared estimate");
  }, 60_000);
});

describe("a typed factor is one source (D107): 12 monthly estimates at the mine's own 19,85 m³/t", () => {
  // The test's arithmetic: x = 100 000 × 19,85 × 0,67 / 1000 = 1 329,95 t a month, E = 15 959,4 t; the
  // factor's ±10 % adds linearly over the months (one source), each month's coal ±2 % is its own.
  const x = (OWN_MONTH_COAL * OWN_EF * 0.67) / 1000;
  const E = 12 * x;
  const grouped = (100 * Math.hypot(0.1 * 12 * x, Math.sqrt(12) * 0.02 * x)) / E;
  const independent = (100 * Math.hypot(Math.sqrt(12) * 0.1 * x, Math.sqrt(12) * 0.02 * x)) / E;

  it("compares by the grouped U_E, «согласуются» where twelve independent factors gave «расходятся»", async () => {
    const row = (await comparison()).facilities.find((f) => f.facility === ownFactorMine)!;
    close(row.estimated!.ch4_t, E, "E");
    close(row.measured.ch4_t, OWN_MEASURED_T, "M");
    expect(independent.toFixed(2)).toBe("2.94");
    close(row.estimated!.u_pct, grouped, "U_E");
    const c = Math.hypot((row.measured.u_pct * OWN_MEASURED_T) / 100, (grouped * E) / 100);
    close(row.combined_t!, c, "C");
    close(row.difference_t!, OWN_MEASURED_T - E, "D");
    expect(Math.abs(OWN_MEASURED_T - E)).toBeLessThanOrEqual(c);
    expect(row.consistent).toBe(true);
    // As twelve independent factors: C below |D|, «расходятся».
    expect(Math.abs(OWN_MEASURED_T - E)).toBeGreaterThan(Math.hypot((row.measured.u_pct * OWN_MEASURED_T) / 100, (independent * E) / 100));
  });

  it("names the typed value's group in the year's shared sources", async () => {
    const answer = await json<{
      lines: Array<{ id: string; ef_u: number; shared_sources: Array<{ kind: string; label: string; count: number; u_pct: number }> }>;
    }>(await h.request(`/api/v1/inventory/uncertainty/?year=${year}&facility=${estimateOnlyMine}`, { token }));
    const mining = answer.lines.find((l) => l.id === "3|1.B.1.a.i.1|CH4")!;
    // Three months at one typed factor: its ±10 % whole, not 10/√3.
    close(mining.ef_u, 10, "the line's F");
    const typed = mining.shared_sources.find((g) => g.label.startsWith("введенное значение"))!;
    expect(typed).toMatchObject({ kind: "factor", count: 3 });
    expect(typed.label).toBe(
      `введенное значение: коэффициент выбросов CH4 при подземной добыче 19,85 м³/т ±10 %, обоснование «${OWN_EF_WHY}»`,
    );
    close(typed.u_pct, 10, "the group's U");
  });
});

describe("an approved year's comparison in its verification pack", () => {
  let dir: string;
  const verify = (at: string) => spawnSync("python3", ["verify.py"], { cwd: at, encoding: "utf8" });
  beforeAll(async () => {
    const act = async (as: string, action: string) => {
      const inventory = await json<{ review: { version: number } }>(await h.request(`/api/v1/inventory/?year=${year}`, { token }));
      await json(await post(`inventory/${year}/review/`, { action, version: inventory.review.version }, as));
    };
    await act(token, "send_to_review");
    await act(reviewer, "approve");
    const res = await h.request(`/api/v1/inventory/${year}/versions/1/pack/`, { token: reviewer });
    expect(res.status, res.status === 200 ? "" : await res.clone().text()).toBe(200);
    const root = mkdtempSync(join(tmpdir(), "compare-pack-"));
    writeFileSync(join(root, "pack.zip"), new Uint8Array(await res.arrayBuffer()));
    const out = spawnSync("python3", ["-m", "zipfile", "-e", join(root, "pack.zip"), join(root, "pack")], { encoding: "utf8" });
    expect(out.status, out.stderr).toBe(0);
    dir = join(root, "pack");
  }, 120_000);

  it("is the route's answer for the approved version, recomputed by verify.py", async () => {
    const answer = await comparison();
    expect(answer.approved_version).toBe(1);
    const packed = JSON.parse(readFileSync(join(dir, "comparison.json"), "utf8")) as MeasuredVsEstimated;
    const live = answer.facilities.find((f) => f.facility === demoMine)!;
    const inPack = packed.facilities.find((f) => f.facility === demoMine)!;
    close(inPack.measured.ch4_t, live.measured.ch4_t);
    close(inPack.combined_t, live.combined_t!);
    expect(inPack.consistent).toBe(live.consistent);
    const out = verify(dir);
    expect(out.stdout).not.toContain("РАСХОДИТСЯ");
    expect(out.stdout).toContain("сходится:    сравнение шахты «Шахта «Демонстрационная»»: измерено, т CH4");
    expect(out.stdout).toContain(`сходится:    сравнение шахты «Шахта «Без декабря»»: месяц ${year}-03, т CH4`);
    expect(out.stdout).toMatch(/сходится: {4}сравнение шахты «Шахта «Демонстрационная»»: вывод «(согласуются|расходятся)»/);
  }, 60_000);

  /** The pack with comparison.json changed by `edit`, its manifest re-hashed and re-signed as a forger would. */
  function forgedWith(edit: (value: MeasuredVsEstimated) => void): string {
    const forged = join(mkdtempSync(join(tmpdir(), "compare-forged-")), "pack");
    cpSync(dir, forged, { recursive: true });
    const file = join(forged, "comparison.json");
    const value = JSON.parse(readFileSync(file, "utf8")) as MeasuredVsEstimated;
    edit(value);
    const text = `${JSON.stringify(value, null, 2)}\n`;
    writeFileSync(file, text);
    const manifest = JSON.parse(readFileSync(join(forged, "manifest.json"), "utf8")) as { files: Array<{ name: string; sha256: string }> };
    manifest.files.find((f) => f.name === "comparison.json")!.sha256 = createHash("sha256").update(text).digest("hex");
    writeFileSync(join(forged, "manifest.json"), JSON.stringify(manifest, null, 2));
    const signed = JSON.parse(readFileSync(join(forged, "manifest.sig.json"), "utf8"));
    writeFileSync(
      join(forged, "manifest.sig.json"),
      JSON.stringify({ ...signed, manifest, manifest_sha256: createHash("sha256").update(canonicalJson(manifest)).digest("hex") }),
    );
    return forged;
  }

  it("verify.py fails once a measured month is altered, naming it, even with the manifest re-hashed", () => {
    const forged = forgedWith((value) => {
      const month = value.facilities.find((f) => f.facility === demoMine)!.measured.months[2];
      month.ch4_t = (month.ch4_t ?? 0) * 1.05;
    });
    const out = verify(forged);
    expect(out.status, out.stdout).toBe(1);
    expect(out.stdout).toContain(`РАСХОДИТСЯ:  сравнение шахты «Шахта «Демонстрационная»»: месяц ${year}-03, т CH4`);
  }, 60_000);

  it("verify.py recomputes U_M and U_E with the shared sources (D107): the old independent U is named", () => {
    const out = verify(dir);
    expect(out.stdout).toContain("сходится:    сравнение шахты «Шахта «Своя газоносность»»: неопределенность оценки U_E, %");
    expect(out.stdout).toContain("сходится:    сравнение шахты «Шахта «Своя газоносность»»: неопределенность измерения U_M, %");
    expect(out.stdout).toContain("сходится:    сравнение шахты «Шахта «Своя газоносность»»: вывод «согласуются»");
    // Rewritten as twelve independent factors would have it: U_E 2,94 %, its C and the flipped verdict.
    const forged = forgedWith((value) => {
      const mine = value.facilities.find((f) => f.facility === ownFactorMine)!;
      const x = (OWN_MONTH_COAL * OWN_EF * 0.67) / 1000;
      const independent = (100 * Math.hypot(Math.sqrt(12) * 0.1 * x, Math.sqrt(12) * 0.02 * x)) / (12 * x);
      mine.estimated!.u_pct = independent;
      mine.combined_t = Math.hypot(
        (mine.measured.u_pct * mine.compared!.measured_ch4_t) / 100,
        (independent * mine.compared!.estimated_ch4_t) / 100,
      );
      mine.consistent = Math.abs(mine.difference_t!) <= mine.combined_t;
      expect(mine.consistent).toBe(false);
    });
    const caught = verify(forged);
    expect(caught.status, caught.stdout).toBe(1);
    expect(caught.stdout).toContain("РАСХОДИТСЯ:  сравнение шахты «Шахта «Своя газоносность»»: неопределенность оценки U_E, %");
    expect(caught.stdout).toContain("РАСХОДИТСЯ:  сравнение шахты «Шахта «Своя газоносность»»: суммарная неопределенность, т CH4");
    expect(caught.stdout).toContain("РАСХОДИТСЯ:  сравнение шахты «Шахта «Своя газоносность»»: вывод — пересчет True, в файле False");
  }, 60_000);

  it("verify.py names a month deleted from comparison.json", () => {
    const forged = forgedWith((value) => {
      const mine = value.facilities.find((f) => f.facility === demoMine)!;
      mine.measured.months = mine.measured.months.filter((m) => m.month !== `${year}-05`);
    });
    const out = verify(forged);
    expect(out.status, out.stdout).toBe(1);
    expect(out.stdout).toContain(`РАСХОДИТСЯ:  сравнение шахты «Шахта «Демонстрационная»»: месяц ${year}-05 — пересчет`);
    expect(out.stdout).toContain("в файле месяца нет (удален)");
  }, 60_000);

  it("verify.py recomputes each measured calculation's CH4 from its periods' inputs and the D93 scope", () => {
    const out = verify(dir);
    expect(out.stdout).toContain(
      "сходится:    сравнение шахты «Шахта «Демонстрационная»»: расчет «Вентиляционный ствол № 2, исходящая струя», т CH4 по его входным данным",
    );
    // The demo mine measured all 12 months at both points; «Без декабря» 11 of them.
    expect(out.stdout).toContain("сходится:    сравнение шахты «Шахта «Демонстрационная»»: месяцев в сравнении 12");
    expect(out.stdout).toContain("сходится:    сравнение шахты «Шахта «Без декабря»»: месяцев в сравнении 11");
    expect(out.stdout).toContain("сходится:    сравнение шахты «Шахта «Без декабря»»: доля оценки за них, т CH4");
  }, 60_000);

  it("verify.py recomputes a measured calculation from its inputs: a stored result raised is named", () => {
    // The snapshot's stored CH4 of the demo's shaft raised by 5 %, its periods' inputs as they were: a
    // check that read the stored results would find nothing to say about the calculation itself.
    const forged = join(mkdtempSync(join(tmpdir(), "compare-forged-")), "pack");
    cpSync(dir, forged, { recursive: true });
    const file = join(forged, "snapshot.json");
    const snapshot = JSON.parse(readFileSync(file, "utf8")) as {
      inventory: { calculations: Array<{ name: string; results: Record<string, unknown> }> };
    };
    const shaft = snapshot.inventory.calculations.find((c) => c.name === "Вентиляционный ствол № 2, исходящая струя")!;
    shaft.results.res_ch4 = (shaft.results.res_ch4 as number) * 1.05;
    writeFileSync(file, JSON.stringify(snapshot));
    const out = verify(forged);
    expect(out.status, out.stdout).toBe(1);
    expect(out.stdout).toContain(
      "РАСХОДИТСЯ:  сравнение шахты «Шахта «Демонстрационная»»: расчет «Вентиляционный ствол № 2, исходящая струя», т CH4 по его входным данным",
    );
  }, 60_000);

  it("the passport says in one line whether measurement and estimate agree", async () => {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(readFileSync(join(dir, "passport.xlsx")) as unknown as ArrayBuffer);
    const rows: string[][] = [];
    book.getWorksheet("Паспорт")!.eachRow((r) => rows.push((r.values as unknown[]).slice(1).map(String)));
    const line = rows.find((r) => r[0] === "Измерено и оценено");
    expect(line?.[1]).toMatch(
      /«Шахта «Демонстрационная»»: измерение и оценка (согласуются|расходятся больше их неопределенности) — измерено /,
    );
    // D93: the mine measured January to November is judged on those months, and its line says so.
    expect(line?.[1]).toMatch(
      /«Шахта «Без декабря»»: измерение и оценка [^;]+ — за 11 из 12 месяцев, измеренных на всех источниках, измерено /,
    );
  });
});
