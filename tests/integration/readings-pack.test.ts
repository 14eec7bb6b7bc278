// D63 and the verification pack: a month accepted from the mine's АГК carries the minute values behind
// it. Three days of the demo simulator's readings of a shaft (anemometer and methane meter) and a
// drainage line (flow at actual conditions with P and T, high-range methane) of last year's March, with a gap,
// a stuck stretch, a value out of range, a jump and two readings in one minute, are pushed, each point's
// month accepted (with a reason: 3 days of 31), the year sent and approved. The accepted figure is the
// same in the inventory, the passport and the pack; `verify.py` recomputes each month's volume, CH4
// content and t CH4 from the packed minute values and exits 0 with the published hash, and a pack
// whose readings file has one minute value changed (the manifest rewritten to match) fails loudly.
// `verify.py --reconcile EXPORT.csv` compares the pack's readings per meter and day
// (readings-days.json) with the mine's own dispatch export: 0 on the export of what was pushed, 1 naming
// the first meter-day where the export lacks a reading or has another value.
// D94: the shaft's methane meter failed a check at 00:00 of 11.03 and passed one at 00:00
// of 12.03: verify.py names its 1 440 minutes «под сомнением» with their span and readings, derived from the
// instruments' record (instruments.json), so a pack with the month's stated doubt removed is named (D107);
// the passport prints the flag and the acceptance's reason beside the month's CH4 content.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { instantOfWallTime } from "@core/company-clock";
import { MINUTE_MS } from "@core/dates";
import { createUser } from "@server/domain/company/users";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { DEMO_SENSORS, simulateReadings } from "@server/demo-readings";
import { multipart, pdfBytes, signIn } from "../support/admin";
import { encodeLegacy } from "../support/legacy-encoding";
import { createHarness, type Harness } from "../support/harness";
import { inventoryCalculations } from "../support/inventory";

// Last year's: readings more than 24 months old are refused (LIMITS.monitoring.pastMonths).
const YEAR = new Date().getUTCFullYear() - 1;
const ZONE = "Asia/Novokuznetsk";
const DAYS = 3;
const START = instantOfWallTime(YEAR, 3, 10, 0, 0, ZONE);
const CODES = ["ВС2-V", "ВС2-CH4", "ДГ-Q", "ДГ-CH4", "ДГ-P", "ДГ-T"];

let h: Harness;
let token: string;
let reviewer: string;
let mine: string;
let pack: Uint8Array;
let listedSha: string;
const points: Record<string, string> = {};
const accepted: Record<string, { calculation: string; ch4_t: number; volume: number }> = {};

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const post = (path: string, body: unknown, as = token) => h.request(`/api/v1/${path}`, { method: "POST", token: as, json: body });

/** The simulator's minutes of the six sensors, with what D58 and D60 have to deal with. */
function readings(): { sensor: string; t: string; value: number }[] {
  const minutes = DAYS * 1440;
  const out: { sensor: string; t: string; value: number }[] = [];
  for (const { sensor, values } of simulateReadings(START, minutes, ZONE)) {
    const code = sensor.register.code;
    if (!CODES.includes(code)) continue;
    const v = Float64Array.from(values);
    if (code === "ВС2-CH4") {
      for (let m = 100; m < 130; m++) v[m] = Number.NaN; // a 30-minute gap
      for (let m = 2000; m < 2080; m++) v[m] = v[2000]; // stuck 80 minutes while the velocity changes
      v[3000] = 5.2; // above the 0–4 % meter's range
      v[3500] = v[3499] + 1.5; // a jump of more than 1 % in a minute
    }
    if (code === "ДГ-Q") for (let m = 1000; m < 1040; m++) v[m] = Number.NaN;
    if (code === "ДГ-T") v[2500] = -300; // below 0 K
    for (let m = 0; m < minutes; m++) {
      if (Number.isNaN(v[m])) continue;
      out.push({ sensor: code, t: new Date(START + m * MINUTE_MS).toISOString(), value: v[m] });
    }
    // Two readings in one minute: the minute's value is their mean (D59).
    if (code === "ВС2-CH4") out.push({ sensor: code, t: new Date(START + 500 * MINUTE_MS + 30_000).toISOString(), value: 0.71 });
  }
  return out;
}

async function act(as: string, action: string) {
  const inventory = await json<{ review: { version: number } }>(await h.request(`/api/v1/inventory/?year=${YEAR}`, { token }), 200);
  await json(await post(`inventory/${YEAR}/review/`, { action, version: inventory.review.version }, as), 200);
}

const extracted = new WeakMap<Uint8Array, string>();
function unzipped(bytes: Uint8Array): string {
  let source = extracted.get(bytes);
  if (!source) {
    const dir = mkdtempSync(join(tmpdir(), "readings-pack-"));
    writeFileSync(join(dir, "pack.zip"), bytes);
    const out = spawnSync("python3", ["-m", "zipfile", "-e", join(dir, "pack.zip"), join(dir, "pack")], { encoding: "utf8" });
    expect(out.status, out.stderr).toBe(0);
    source = join(dir, "pack");
    extracted.set(bytes, source);
  }
  const copy = join(mkdtempSync(join(tmpdir(), "readings-pack-")), "pack");
  cpSync(source, copy, { recursive: true });
  return copy;
}
const verify = (dir: string, ...args: string[]) => spawnSync("python3", ["verify.py", ...args], { cwd: dir, encoding: "utf8" });

interface Manifest {
  files: Array<{ name: string; sha256: string }>;
  telemetry: Array<{ calculation: string; readings: string; month: string; point: string; readings_sha256: string }>;
}
const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest;

const sensorIds: Record<string, string> = {};
const certificateScan = pdfBytes(3000, "certificate C-419");

beforeAll(async () => {
  h = await createHarness();
  const a = await h.signedInUser("ООО «Шахта АГК»");
  token = a.token;
  await createUser(h.deps, { companyId: a.companyId, email: "reviewer@agk.example", password: "reviewer-password", role: "reviewer" });
  reviewer = ((await (await signIn(h, "reviewer@agk.example", "reviewer-password")).json()) as { access: string }).access;
  mine = (await json<{ id: string }>(await post("facilities/", { name: "Шахта «АГК»", kind: "underground_mine" }), 201)).id;
  for (const [name, kind] of [
    ["Вентиляционный ствол № 2", "ventilation_shaft"],
    ["Дегазационная установка", "drainage_station"],
  ]) {
    points[kind] = (await json<{ id: string }>(await post(`facilities/${mine}/points/`, { name, kind }), 201)).id;
  }
  for (const sensor of DEMO_SENSORS.filter((s) => CODES.includes(s.register.code))) {
    const point = points[sensor.point === "shaft" ? "ventilation_shaft" : "drainage_station"];
    sensorIds[sensor.register.code] = (
      await json<{ id: string }>(await post(`facilities/${mine}/sensors/`, { ...sensor.register, point }), 201)
    ).id;
  }
  // D94: the shaft's methane meter failed its check at 00:00 of 11.03 and passed at
  // 00:00 of 12.03 — a day of its minutes «под сомнением», kept and used.
  await createUser(h.deps, {
    companyId: a.companyId,
    email: "electrician@agk.example",
    password: "electrician-password",
    first_name: "Андрей",
    last_name: "Сидоров",
    duty: "agk_electrician",
  });
  const electrician = ((await (await signIn(h, "electrician@agk.example", "electrician-password")).json()) as { access: string }).access;
  for (const [day, result] of [
    [11, "failed"],
    [12, "passed"],
  ] as const) {
    const at = new Date(instantOfWallTime(YEAR, 3, day, 0, 0, ZONE)).toISOString();
    const body = {
      at,
      kind: "planned",
      button_test_ok: result === "passed",
      result,
      ...(result === "failed" ? { fault: "Не работает кнопка «Контроль»" } : {}),
    };
    await json(await post(`facilities/${mine}/sensors/${sensorIds["ВС2-CH4"]}/checks/`, body, electrician), 201);
  }
  // a verification of the shaft's methane meter, recorded before the approval, with its
  // certificate's scan attached after it.
  const verification = await json<{ id: string }>(
    await post(`facilities/${mine}/sensors/${sensorIds["ВС2-CH4"]}/verifications/`, {
      instrument_type: "ДМС 03",
      register_number: "12345-06",
      serial: "0419",
      verified_on: `${YEAR - 1}-06-01`,
      valid_to: `${YEAR + 1}-05-31`,
      certificate: "С-419",
    }),
    201,
  );
  const form = await multipart({}, { name: "Свидетельство С-419.pdf", bytes: certificateScan });
  const attached = await h.request(
    `/api/v1/facilities/${mine}/sensors/${sensorIds["ВС2-CH4"]}/verifications/${verification.id}/certificate/`,
    {
      method: "PUT",
      token,
      body: form.body as Uint8Array<ArrayBuffer>,
      headers: form.headers,
    },
  );
  expect(attached.status, await attached.clone().text()).toBe(200);
  const all = readings();
  for (let i = 0; i < all.length; i += 10_000) {
    const pushed = await json<{ batch: string }>(
      await post("telemetry/readings/", { facility: mine, readings: all.slice(i, i + 10_000) }),
      202,
    );
    await monitoringIdle(h.deps);
    const status = await json<{ state: string; refused: unknown[] }>(
      await h.request(`/api/v1/telemetry/batches/${pushed.batch}/`, { token }),
      200,
    );
    expect(status).toMatchObject({ state: "done", refused: [] });
  }
  const project = (
    await json<{ id: string }>(
      await post("projects/create_project/", {
        name: `Шахта АГК ${YEAR}`,
        start_date: `${YEAR}-01-01`,
        end_date: `${YEAR}-12-31`,
        facility: mine,
      }),
      201,
    )
  ).id;
  for (const kind of ["ventilation_shaft", "drainage_station"]) {
    const [offer] = await json<Array<{ accepted: { calculation: string; ch4_t: number }; volume_thousand_m3: number }>>(
      await post("telemetry/offers/accept/", {
        facility: mine,
        point: points[kind],
        months: [`${YEAR}-03`],
        project,
        reason: `Пусконаладка АГК: показания с 10.03.${YEAR} по 12.03.${YEAR}`,
      }),
      201,
    );
    accepted[kind] = { calculation: offer.accepted.calculation, ch4_t: offer.accepted.ch4_t, volume: offer.volume_thousand_m3 };
  }
  await act(token, "send_to_review");
  await act(reviewer, "approve");
  listedSha = (await json<Array<{ sha256: string }>>(await h.request(`/api/v1/inventory/${YEAR}/versions/`, { token }), 200))[0].sha256;
  const res = await h.request(`/api/v1/inventory/${YEAR}/versions/1/pack/`, { token });
  expect(res.status, res.status === 200 ? "" : await res.clone().text()).toBe(200);
  pack = new Uint8Array(await res.arrayBuffer());
}, 240_000);
afterAll(() => h.close());

describe("a month accepted from the АГК in the verification pack (D63)", () => {
  it("has the same t CH4 in the inventory, the passport and the pack", async () => {
    const dir = unzipped(pack);
    const manifest = manifestOf(dir);
    expect(manifest.telemetry.map((t) => [t.point, t.month])).toEqual(
      expect.arrayContaining([
        ["Вентиляционный ствол № 2", `${YEAR}-03`],
        ["Дегазационная установка", `${YEAR}-03`],
      ]),
    );
    const inventory = await inventoryCalculations(h, token, YEAR);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(join(dir, "passport.xlsx"));
    for (const kind of ["ventilation_shaft", "drainage_station"]) {
      const { calculation, ch4_t } = accepted[kind];
      const line = inventory.find((c) => c.id === calculation)!;
      const inInventory = line.gases.find((g) => g.gas === "CH4")!.t;
      expect(inInventory).toBeCloseTo(ch4_t, 9);
      // The pack: the month's file and its recomputation's stated figure.
      const listed = manifest.telemetry.find((t) => t.point === line.name.split(":")[0])!;
      const described = JSON.parse(readFileSync(join(dir, listed.readings.replace(/\.csv$/, ".json")), "utf8"));
      expect(described.result.ch4_t).toBeCloseTo(inInventory, 9);
      expect(
        createHash("sha256")
          .update(readFileSync(join(dir, listed.readings)))
          .digest("hex"),
      ).toBe(listed.readings_sha256);
      const calc = JSON.parse(readFileSync(join(dir, listed.calculation), "utf8"));
      expect(calc.id).toBe(calculation);
      expect(calc.results.res_ch4).toBeCloseTo(inInventory, 9);
      // The passport: the source's «Выбросы CH4» row of the accepted month's calculation.
      const printed: number[] = [];
      for (const sheet of workbook.worksheets) {
        sheet.eachRow((row) => {
          if (row.getCell(4).value === line.name && row.getCell(8).value === "Выбросы CH4") printed.push(Number(row.getCell(9).value));
        });
      }
      expect(printed, line.name).toHaveLength(1);
      expect(printed[0]).toBeCloseTo(inInventory, 6);
    }
  });

  it("carries the checks and verifications of the sensors the accepted months used", () => {
    const dir = unzipped(pack);
    const manifest = manifestOf(dir);
    expect(manifest.files.map((f) => f.name)).toContain("instruments.json");
    const file = JSON.parse(readFileSync(join(dir, "instruments.json"), "utf8")) as {
      months: { calculation: string; sensors: { code: string; verifications: { certificate: string; valid_to: string }[] }[] }[];
    };
    expect(file.months.map((m) => m.calculation).sort()).toEqual(manifest.telemetry.map((t) => t.calculation).sort());
    const code = "ВС2-CH4";
    const meter = file.months.flatMap((m) => m.sensors).find((s) => s.code === code)!;
    expect(meter.verifications).toEqual([expect.objectContaining({ certificate: "С-419", valid_to: `${YEAR + 1}-05-31` })]);
  });

  it("carries the verification's certificate scan beside instruments.json, its SHA-256 in the manifest", () => {
    const dir = unzipped(pack);
    const file = JSON.parse(readFileSync(join(dir, "instruments.json"), "utf8")) as {
      months: { sensors: { code: string; verifications: { certificate_file: { file: string; name: string } | null }[] }[] }[];
    };
    const meter = file.months.flatMap((m) => m.sensors).find((s) => s.code === "ВС2-CH4")!;
    const named = meter.verifications[0].certificate_file!;
    expect(named).toMatchObject({ file: "instruments/certificates/0001.pdf", name: "Свидетельство С-419.pdf" });
    const bytes = readFileSync(join(dir, named.file));
    expect(Buffer.compare(bytes, Buffer.from(certificateScan))).toBe(0);
    const listed = manifestOf(dir).files.find((f) => f.name === named.file);
    expect(listed?.sha256).toBe(createHash("sha256").update(certificateScan).digest("hex"));
  });

  it("verify.py recomputes each month from the packed minute values and exits 0 with the published hash", () => {
    const out = verify(unzipped(pack), "--sha256", listedSha);
    expect(out.status, out.stdout + out.stderr).toBe(0);
    expect(out.stdout).not.toContain("РАСХОДИТСЯ");
    for (const name of ["Вентиляционный ствол № 2", "Дегазационная установка"]) {
      const what = `расчет «${name}: по данным АГК, 03.${YEAR}»`;
      expect(out.stdout).toContain(`сходится:    ${what}`);
      expect(out.stdout).toMatch(
        new RegExp(`сходится: {4}${what} \\(telemetry/\\d{4}\\.csv\\): данные АГК: CH4, т [\\d.]+ — пересчет из минутных значений`),
      );
      expect(out.stdout).toMatch(
        new RegExp(`${what} \\(telemetry/\\d{4}\\.csv\\): данные АГК: SHA-256 показаний — тот, что в утвержденном снимке`),
      );
    }
    // The shaft's minutes: 30 missing, 80 stuck (more when a minute beside them had the same value), one
    // out of range and a jump with the minute back substituted; March's other 28 days «нет данных».
    const [, valid, substituted, missing] = /Вентиляционный ствол № 2.*минуты достоверные (\d+), замещенные (\d+), без данных (\d+)/
      .exec(out.stdout)!
      .map(Number);
    expect(valid + substituted).toBe(DAYS * 1440);
    expect(substituted).toBeGreaterThanOrEqual(30 + 80 + 1 + 2);
    expect(substituted).toBeLessThan(130);
    expect(missing).toBe((31 - DAYS) * 1440);
  });

  it("verify.py names the shaft meter's day of minutes «под сомнением» from the pack (D94)", () => {
    const out = verify(unzipped(pack), "--sha256", listedSha);
    const from = new Date(instantOfWallTime(YEAR, 3, 11, 0, 0, ZONE)).toISOString();
    const to = new Date(instantOfWallTime(YEAR, 3, 12, 0, 0, ZONE)).toISOString();
    expect(out.stdout).toContain(`сходится:    расчет «Вентиляционный ствол № 2: по данным АГК, 03.${YEAR}» (telemetry/`);
    expect(out.stdout).toMatch(
      new RegExp(
        `данные АГК: показания под сомнением ВС2-CH4 — 1440 мин \\(${from.replace(/\./g, "\\.")} — ${to.replace(/\./g, "\\.")}\\), ` +
          `показаний в них \\d+: учтены как есть, не замещены \\(датчик не прошел проверку 11\\.03\\.${YEAR}\\)`,
      ),
    );
    expect(out.stdout).not.toMatch(/показания под сомнением (ДГ|ВС2-V)/);
  });

  it("verify.py derives that day from instruments.json: a pack with its `doubt` removed is named (D107)", () => {
    // The month's telemetry/NNNN.json without its «под сомнением» list, the manifest rewritten to match:
    // the stated count is gone, the instruments' record (the failed check of 11.03, the passed one of
    // 12.03) still gives 1 440 minutes.
    const dir = unzipped(pack);
    const manifest = manifestOf(dir);
    const listed = manifest.telemetry.find((t) => t.point === "Вентиляционный ствол № 2")!;
    const name = listed.readings.replace(/\.csv$/, ".json");
    const description = JSON.parse(readFileSync(join(dir, name), "utf8")) as { doubt?: unknown };
    expect(description.doubt).toBeDefined();
    delete description.doubt;
    const text = JSON.stringify(description);
    writeFileSync(join(dir, name), text);
    manifest.files.find((f) => f.name === name)!.sha256 = createHash("sha256").update(text).digest("hex");
    writeFileSync(join(dir, "manifest.json"), JSON.stringify(manifest, null, 2));
    const out = verify(dir, "--sha256", listedSha);
    expect(out.status, out.stdout).toBe(1);
    expect(out.stdout).toMatch(
      new RegExp(
        `РАСХОДИТСЯ: {2}расчет «Вентиляционный ствол № 2: по данным АГК, 03\\.${YEAR}» \\(telemetry/\\d{4}\\.csv\\): данные АГК: ` +
          `показания под сомнением ВС2-CH4 — по записи приборов 1440 мин \\(датчик не прошел проверку 11\\.03\\.${YEAR}\\), в пакете не указаны`,
      ),
    );
  });

  it("the passport prints the flag and the reason the month was accepted with, beside its CH4 content (D94)", async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(join(unzipped(pack), "passport.xlsx"));
    const printed: string[] = [];
    for (const sheet of workbook.worksheets)
      sheet.eachRow((row) =>
        row.eachCell((cell) => {
          if (typeof cell.value === "string" && cell.value.includes("показания под сомнением")) printed.push(cell.value);
        }),
      );
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatch(
      new RegExp(
        `ВС2-CH4: показания под сомнением: датчик не прошел проверку 11\\.03\\.${YEAR} — 1\\s440 мин \\(сохранены и учтены, не замещены\\); ` +
          `причина принятия: Пусконаладка АГК`,
      ),
    );
  });

  it("fails loudly on a pack whose readings have one minute value changed, the manifest rewritten to match", () => {
    const dir = unzipped(pack);
    const manifest = manifestOf(dir);
    const listed = manifest.telemetry.find((t) => t.point === "Вентиляционный ствол № 2")!;
    const text = readFileSync(join(dir, listed.readings), "utf8");
    const lines = text.split("\n");
    const at = lines.findIndex((l) => l.startsWith("ВС2-CH4;") && l.includes("T10:00:00.000Z"));
    const [code, t, value] = lines[at].split(";");
    lines[at] = `${code};${t};${Number(value) + 0.3}`;
    const forged = lines.join("\n");
    writeFileSync(join(dir, listed.readings), forged);
    manifest.files.find((f) => f.name === listed.readings)!.sha256 = createHash("sha256").update(forged).digest("hex");
    writeFileSync(join(dir, "manifest.json"), JSON.stringify(manifest, null, 2));
    const out = verify(dir, "--sha256", listedSha);
    expect(out.status, out.stdout).toBe(1);
    expect(out.stdout).toMatch(
      new RegExp(
        `РАСХОДИТСЯ: {2}расчет «Вентиляционный ствол № 2: по данным АГК, 03\\.${YEAR}» \\(telemetry\\/\\d{4}\\.csv\\): данные АГК: SHA-256 показаний`,
      ),
    );
    expect(out.stdout).toMatch(/РАСХОДИТСЯ: {2}.*данные АГК: CH4, т — пересчет из минутных значений [\d.]+, в расчете [\d.]+/);
  });

  it("a pack whose readings file is gone is incomplete (exit 2)", () => {
    const dir = unzipped(pack);
    const manifest = manifestOf(dir);
    const listed = manifest.telemetry[0];
    manifest.files = manifest.files.filter((f) => f.name !== listed.readings);
    writeFileSync(join(dir, "manifest.json"), JSON.stringify(manifest, null, 2));
    spawnSync("rm", [join(dir, listed.readings)]);
    const out = verify(dir, "--sha256", listedSha);
    expect(out.status, out.stdout).toBe(2);
    expect(out.stdout).toContain(`НЕПОЛОН:     файла ${listed.readings} нет в пакете`);
  });

  /** The mine's export of `all` (a row per reading, Windows-1251, «;», the company's wall clock with
   *  seconds, decimal commas), changed by `edit`. */
  function exported(edit: (rows: { sensor: string; t: string; value: number }[]) => void = () => {}): string {
    const rows = readings();
    edit(rows);
    const wall = (t: string) => {
      const iso = new Date(Date.parse(t) + 7 * 3_600_000).toISOString();
      return `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)} ${iso.slice(11, 19)}`;
    };
    const text = ["Датчик;Время;Значение", ...rows.map((r) => `${r.sensor};${wall(r.t)};${String(r.value).replace(".", ",")}`)].join(
      "\r\n",
    );
    const file = join(mkdtempSync(join(tmpdir(), "readings-export-")), "АГК март.csv");
    writeFileSync(file, encodeLegacy(text, "windows-1251"));
    return file;
  }
  const day11 = (t: string) => t.startsWith(`${YEAR}-03-11T05:`);

  it("verify.py --reconcile agrees with the mine's export of the readings pushed, per meter and day", () => {
    const out = verify(unzipped(pack), "--reconcile", exported());
    expect(out.status, out.stdout + out.stderr).toBe(0);
    expect(out.stdout).toContain(`сходится: ${CODES.length * DAYS} суток датчиков`);
  });

  it("verify.py --reconcile names the first meter-day where the export lacks a reading or has another value (exit 1)", () => {
    const lacking = verify(
      unzipped(pack),
      "--reconcile",
      exported((rows) =>
        rows.splice(
          rows.findIndex((r) => r.sensor === "ДГ-P" && day11(r.t)),
          1,
        ),
      ),
    );
    expect(lacking.status, lacking.stdout + lacking.stderr).toBe(1);
    expect(lacking.stdout).toMatch(
      new RegExp(`РАСХОДИТСЯ: датчик ДГ-P, сутки ${YEAR}-03-11: в пакете 1440 показаний \\(SHA-256 [0-9a-f]{64}\\), в выгрузке 1439`),
    );
    const other = verify(
      unzipped(pack),
      "--reconcile",
      exported((rows) => {
        const row = rows.find((r) => r.sensor === "ВС2-V" && day11(r.t))!;
        row.value += 0.1;
      }),
    );
    expect(other.status, other.stdout).toBe(1);
    expect(other.stdout).toMatch(new RegExp(`РАСХОДИТСЯ: датчик ВС2-V, сутки ${YEAR}-03-11: в пакете 1440 показаний`));
    expect(other.stdout).toMatch(/в выгрузке 1440 \(SHA-256/);
  });
});
