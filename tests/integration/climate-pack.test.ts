// the verifier's pack of a climate project's monitoring period
// (GET v1/climate-projects/{id}/periods/{p}/pack/). A constructed project — an open flare losing its
// flame for three hours, an enclosed flare at actual conditions whose exhaust cools below 500 °C for
// two and a half hours, a gas engine that stops while fed and nets its own consumption, gaps short
// (substituted) and long («нет данных») — is computed from its pushed readings; its pack unzips, and
// `python3 verify.py --public-key` recomputes every hour, the deviations and the totals from the
// readings and exits 0. One changed minute, one changed efficiency source, a device of a kind its
// table of kinds lacks and a removed file each make it exit 1 naming what differs. The pack is the same bytes on every download, a reading changed
// after the period moves none of them. Over a part limit lowered through the host's config the pack
// comes as a zip of parts, each within the limit, one manifest over all: verify.py takes the parts,
// and a part left out is named. Another company's project, an unknown period: 404.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { createHarness, type Harness } from "../support/harness";
import { signIn } from "../support/admin";
import { FILLED_REPORT } from "../support/climate-case-a";
import { createUser } from "@server/domain/company/users";
import { runJob } from "@server/adapters/spreadsheets/jobs";
import { newId } from "@server/domain/ids";
import { inProcessSpreadsheets } from "@server/export/in-process";
import { climatePackNeedsJob } from "@server/domain/climate/pack-size";

let h: Harness;
let staff: { token: string; companyId: string; userId: string; email: string };
let other: string;
let keyFile: string;
let packPath: string;
let period: { id: string; carbon_units: number; totals: Record<string, number> };
let project: string;

/** 2026-06-01 00:00 in Novokuznetsk (UTC+7), the company's clock. */
const JUNE_1 = Date.UTC(2026, 4, 31, 17, 0);
const HOURS = 12;

async function created(res: Response) {
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Record<string, unknown>;
}

const api = (path: string, init: { method?: string; json?: unknown; token?: string } = {}) =>
  h.request(`/api/v1/${path}`, { token: staff.token, ...init });

type Reading = { sensor: string; t: string; value: number };

/** Each meter's minutes over the 12 hours (a reading at :30 of each minute; none where a gap is). */
function readings(): Reading[][] {
  const flare: Reading[] = [];
  const enclosed: Reading[] = [];
  const engine: Reading[] = [];
  for (let m = 0; m < HOURS * 60; m++) {
    const hour = Math.floor(m / 60);
    const minute = m % 60;
    const t = new Date(JUNE_1 + m * 60_000 + 30_000).toISOString();
    // Ф-1, an open flare at normal conditions: flame lost 03:00–05:59; flow missing 07:10–07:29 (20 min:
    // «нет данных») and 09:40–09:44 (5 min: substituted by the lower neighbour).
    const flowGap = (hour === 7 && minute >= 10 && minute < 30) || (hour === 9 && minute >= 40 && minute < 45);
    if (!flowGap) flare.push({ sensor: "Q-F1", t, value: 21 + (hour % 3) * 0.5 });
    flare.push({ sensor: "C-F1", t, value: 38 + (hour % 2) });
    flare.push({ sensor: "FL-F1", t, value: hour >= 3 && hour <= 5 ? 0 : 1 });
    // ФЗ-2, an enclosed flare at actual conditions: exhaust 820 °C, cooling to 450 °C from 06:30 to 08:59;
    // CH4 missing 02:05–02:12 (8 min, substituted).
    enclosed.push({ sensor: "Q-F2", t, value: 35 }, { sensor: "P-F2", t, value: 104 }, { sensor: "T-F2", t, value: 12 });
    if (!(hour === 2 && minute >= 5 && minute < 13)) enclosed.push({ sensor: "C-F2", t, value: hour < 6 ? 46 : 44 });
    enclosed.push({ sensor: "TEG-F2", t, value: m >= 6 * 60 + 30 && m < 9 * 60 ? 450 : 820 });
    // ГПУ-1, an engine at standard conditions: stopped while fed 10:20–10:29; its own use netted.
    // every channel of the engine silent 08:10–08:16 (7 min) while it runs: its gas
    // channels are substituted, its run status never is — «нет данных о работе агрегата 7 мин».
    const silent = hour === 8 && minute >= 10 && minute < 17;
    if (!silent) engine.push({ sensor: "Q-G1", t, value: 18 }, { sensor: "C-G1", t, value: 52 });
    if (!silent) engine.push({ sensor: "RUN-G1", t, value: hour === 10 && minute >= 20 && minute < 30 ? 0 : 1 });
    if (minute === 59) {
      engine.push({ sensor: "EL-G1", t, value: 2 + hour / 100 });
      engine.push({ sensor: "EL-OWN", t, value: 0.06 });
    }
  }
  return [flare, enclosed, engine];
}

async function push(facility: string, batch: Reading[]) {
  const res = await api("telemetry/readings/", { method: "POST", json: { facility, readings: batch } });
  expect(res.status, await res.clone().text()).toBe(202);
  await monitoringIdle(h.deps);
}

async function download(path = `climate-projects/${project}/periods/${period.id}/pack/`, token = staff.token) {
  const res = await api(path, { token });
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/zip");
  return new Uint8Array(await res.arrayBuffer());
}

const run = (cwd: string, ...args: string[]) => spawnSync("python3", ["verify.py", ...args], { cwd, encoding: "utf8", maxBuffer: 1 << 26 });

/** The zip extracted into a folder of its own. */
function unzip(bytes: Uint8Array): string {
  const dir = mkdtempSync(join(tmpdir(), "climate-pack-"));
  writeFileSync(join(dir, "pack.zip"), bytes);
  const out = spawnSync("python3", ["-m", "zipfile", "-e", join(dir, "pack.zip"), join(dir, "pack")], { encoding: "utf8" });
  expect(out.status, out.stderr).toBe(0);
  return join(dir, "pack");
}

beforeAll(async () => {
  h = await createHarness();
  staff = await h.signedInUser("ООО «Климат-Пакет»");
  other = (await h.signedInUser("ООО «Чужой пакет»")).token;
  const facility = String(
    (await created(await api("facilities/", { method: "POST", json: { name: "Шахта Пакетная", kind: "underground_mine" } }))).id,
  );
  const point = String(
    (
      await created(
        await api(`facilities/${facility}/points/`, {
          method: "POST",
          json: { name: "Дегазационная станция", kind: "drainage_station", instrument: "АГК" },
        }),
      )
    ).id,
  );
  for (const [code, kind] of [
    ["Q-F1", "flow"],
    ["C-F1", "methane_high"],
    ["FL-F1", "flame"],
    ["Q-F2", "flow"],
    ["C-F2", "methane_high"],
    ["P-F2", "pressure"],
    ["T-F2", "temperature"],
    ["TEG-F2", "exhaust_temperature"],
    ["Q-G1", "flow"],
    ["C-G1", "methane_high"],
    ["RUN-G1", "run_status"],
    ["EL-G1", "electricity"],
    ["EL-OWN", "electricity"],
  ]) {
    await created(
      await api(`facilities/${facility}/sensors/`, { method: "POST", json: { code, kind, point, in_service_from: "2026-01-15" } }),
    );
  }
  for (const batch of readings()) await push(facility, batch);
  project = String(
    (
      await created(
        await api("climate-projects/", {
          method: "POST",
          json: {
            name: "Утилизация метана «Пакетная»",
            facility,
            start: "2026-06-01",
            methodology: {
              code: "CDM-ACM0008",
              name: "ACM0008: Abatement of methane from coal mines",
              version: "08.0",
              source: "UNFCCC CDM",
              tools: [{ code: "TOOL06", name: "Project emissions from flaring", version: "04.0" }],
            },
            devices: [
              { name: "Ф-1", point, kind: "flare_open", flow_basis: "normal_0C", sensors: { q: "Q-F1", c: "C-F1", flame: "FL-F1" } },
              {
                name: "ФЗ-2",
                point,
                kind: "flare_enclosed",
                flow_basis: "actual",
                eta_option: "default",
                sensors: { q: "Q-F2", c: "C-F2", p: "P-F2", t: "T-F2", t_eg: "TEG-F2" },
              },
              {
                name: "ГПУ-1",
                point,
                kind: "engine",
                flow_basis: "standard_20C",
                sensors: { q: "Q-G1", c: "C-G1", run: "RUN-G1", e_gen: "EL-G1" },
              },
            ],
            e_own_sensor: "EL-OWN",
          },
        }),
      )
    ).id,
  );
  period = (await created(
    await api(`climate-projects/${project}/periods/`, {
      method: "POST",
      json: {
        start: "2026-06-01T00:00",
        end: "2026-06-01T12:00",
        period: {
          e_grid_aux_mwh: 1.5,
          fuels: [{ name: "СУГ, запальник", t: 0.01, ef_t_co2_per_t: 2.903 }],
          leakage_t_co2e: 0,
          ef_grid_t_per_mwh: 0.62,
          ef_grid_source: "Коэффициент ОЭС Сибири, письмо сетевой компании № 12 от 10.01.2026",
        },
      },
    }),
  )) as unknown as typeof period;
  const keys = (await (await h.request("/api/v1/signing-keys/")).json()) as { keys: Array<{ pem: string }> };
  keyFile = join(mkdtempSync(join(tmpdir(), "key-")), "platform.pem");
  writeFileSync(keyFile, keys.keys.at(-1)!.pem);
  packPath = unzip(await download());
}, 300_000);
afterAll(() => h.close());

describe("GET v1/climate-projects/{id}/periods/{p}/pack/", () => {
  it("holds every meter's readings, the hours, the register, the deviations, the totals, a signed manifest and verify.py; verify.py agrees and exits 0", () => {
    const manifest = JSON.parse(readFileSync(join(packPath, "manifest.json"), "utf8")) as { kind: string; files: { name: string }[] };
    expect(manifest.kind).toBe("climate_period");
    const names = manifest.files.map((f) => f.name);
    for (const name of [
      "period.json",
      "plan.json",
      "totals.json",
      "register.csv",
      "deviations.csv",
      "report/report.pdf",
      "report/report.xlsx",
      "verify.py",
    ])
      expect(names).toContain(name);
    expect(names.filter((n) => n.startsWith("minutes/"))).toHaveLength(13);
    expect(names.filter((n) => n.startsWith("hours/"))).toEqual(["hours/01_Ф-1.csv", "hours/02_ФЗ-2.csv", "hours/03_ГПУ-1.csv"]);
    expect(readdirSync(packPath)).toContain("manifest.sig.json");
    const register = readFileSync(join(packPath, "register.csv"), "utf8");
    expect(register).toContain("TEG-F2;ФЗ-2: t_eg;Температура отходящих газов;°C");
    expect(register).toContain("2026-01-15");
    // The hours the rules say: Ф-1's 03–05 not proven, 07 no data, 09 substituted; ФЗ-2's 06–08 not proven.
    const flare = readFileSync(join(packPath, "hours/01_Ф-1.csv"), "utf8").split("\r\n");
    expect(flare[4]).toContain("not_proven_flame");
    expect(flare[8]).toContain(";0;;no_data;");
    expect(flare[10]).toContain("q=5");
    const enclosed = readFileSync(join(packPath, "hours/02_ФЗ-2.csv"), "utf8").split("\r\n");
    expect(enclosed.slice(7, 10).every((row) => row.includes("not_proven_t_eg"))).toBe(true);
    const engine = readFileSync(join(packPath, "hours/03_ГПУ-1.csv"), "utf8").split("\r\n");
    expect(engine[11]).toContain("not_proven_run");
    expect(engine[9]).toContain("not_proven_run_no_data");
    const report = JSON.parse(readFileSync(join(packPath, "period.json"), "utf8")) as {
      result: { deviations: { device: string; label: string; kind: string; detail: Record<string, unknown> }[] };
    };
    expect(report.result.deviations.find((d) => d.device === "ГПУ-1" && d.label === "2026-06-01T08")?.detail).toMatchObject({
      eta_basis: "not_proven_run_no_data",
      run_missing_min: 7,
    });
    expect(period.totals.e_own_mwh).toBeCloseTo(0.72, 9);
    // BE_el and PE_ME rest on the period's EF_grid, 0,62.
    const net = period.totals.e_cred_mwh - period.totals.e_own_mwh;
    expect(period.totals.be_el_t_co2).toBeCloseTo(Math.max(0, net) * 0.62, 12);
    expect(period.totals.pe_me_t_co2).toBeCloseTo((1.5 + Math.max(0, -net)) * 0.62 * 1.2, 12);

    const out = run(packPath, "--public-key", keyFile);
    expect(out.status, out.stdout + out.stderr).toBe(0);
    expect(out.stdout).toContain("подпись платформы над манифестом");
    expect(out.stdout).toContain(`углеродные единицы: ${period.carbon_units}`);
    expect(out.stdout).toContain("Ф-1: все 12 часов");
    expect(out.stdout).toContain("ГПУ-1: все 12 часов");
    expect(out.stdout).not.toContain("РАСХОДИТСЯ");
    // the period's EF_grid (0,62, not section 13.5's 0,5) is recomputed with, its source printed.
    expect(out.stdout).toContain("EF_grid 0.62 т CO2/МВт·ч — источник: Коэффициент ОЭС Сибири");
  });

  it("exits 0 with the platform's key saved in the unzipped folder and named as the guide says", () => {
    const dir = unzip(readFileSync(join(packPath, "..", "pack.zip")));
    writeFileSync(join(dir, "platform.pem"), readFileSync(keyFile));
    const out = run(dir, "--public-key", "platform.pem");
    expect(out.status, out.stdout).toBe(0);
    expect(out.stdout).toContain("примечание: platform.pem — открытый ключ, переданный --public-key");
    // Any other file added beside the pack's is still no file of the pack.
    writeFileSync(join(dir, "readme.txt"), "добавлено");
    const added = run(dir, "--public-key", "platform.pem");
    expect(added.status, added.stdout).toBe(1);
    expect(added.stdout).toContain("РАСХОДИТСЯ:  файл readme.txt — его нет в подписанном манифесте");
    rmSync(dir, { recursive: true, force: true });
  });

  it("exits 1 on one changed minute, naming the file and the hour it moves", () => {
    const dir = unzip(readFileSync(join(packPath, "..", "pack.zip")));
    const file = join(dir, "minutes/01_Q-F1.csv");
    const lines = readFileSync(file, "utf8").split("\n");
    // 02:15's flow: 21 → 29 m³/min.
    expect(lines[2 * 60 + 15 + 1]).toMatch(/;22$/);
    lines[2 * 60 + 15 + 1] = lines[2 * 60 + 15 + 1].replace(/;22$/, ";29");
    writeFileSync(file, lines.join("\n"));
    const out = run(dir, "--public-key", keyFile);
    expect(out.status, out.stdout).toBe(1);
    expect(out.stdout).toContain("РАСХОДИТСЯ:  файл minutes/01_Q-F1.csv");
    expect(out.stdout).toMatch(/РАСХОДИТСЯ: {2}Ф-1, час 2026-06-01T02 — v_ch4_m3/);
    rmSync(dir, { recursive: true, force: true });
  });

  it("verify.py --reconcile agrees with the mine's export of the meters' readings per meter and company day, and names the one that differs", () => {
    const dir = unzip(readFileSync(join(packPath, "..", "pack.zip")));
    const all = readings().flat();
    const codes = [...new Set(all.map((r) => r.sensor))];
    const exportOf = (edit: (r: Reading) => number) => {
      const byTime = new Map<string, Map<string, number>>();
      for (const r of all) byTime.set(r.t, (byTime.get(r.t) ?? new Map()).set(r.sensor, edit(r)));
      const rows = [...byTime].map(([t, values]) => [t, ...codes.map((c) => String(values.get(c) ?? "").replace(".", ","))].join(";"));
      const file = join(dir, `АГК ${byTime.size}.csv`);
      writeFileSync(file, ["Время", ...codes].join(";") + "\r\n" + rows.join("\r\n"));
      return file;
    };
    const same = run(
      dir,
      "--reconcile",
      exportOf((r) => r.value),
    );
    expect(same.status, same.stdout + same.stderr).toBe(0);
    expect(same.stdout).toContain(`сходится: ${codes.length} суток датчиков`);
    const changed = run(
      dir,
      "--reconcile",
      exportOf((r) => (r.sensor === "Q-F1" && r.t === new Date(JUNE_1 + 135 * 60_000 + 30_000).toISOString() ? 29 : r.value)),
    );
    expect(changed.status, changed.stdout).toBe(1);
    expect(changed.stdout).toMatch(
      /РАСХОДИТСЯ: датчик Q-F1, сутки 2026-06-01: в пакете \d+ показаний \(SHA-256 [0-9a-f]{64}\), в выгрузке \d+/,
    );
    rmSync(dir, { recursive: true, force: true });
  });

  it("exits 1 on one changed efficiency source in the hourly table, naming the hour", () => {
    const dir = unzip(readFileSync(join(packPath, "..", "pack.zip")));
    const file = join(dir, "hours/02_ФЗ-2.csv");
    const rows = readFileSync(file, "utf8").split("\r\n");
    rows[8] = rows[8].replace("not_proven_t_eg", "default_enclosed_t_eg_60");
    writeFileSync(file, rows.join("\r\n"));
    const out = run(dir, "--public-key", keyFile);
    expect(out.status, out.stdout).toBe(1);
    expect(out.stdout).toContain("РАСХОДИТСЯ:  файл hours/02_ФЗ-2.csv");
    expect(out.stdout).toContain(
      "ФЗ-2, час 2026-06-01T07 — основание КПД: в таблице «default_enclosed_t_eg_60», пересчет «not_proven_t_eg»",
    );
    rmSync(dir, { recursive: true, force: true });
  });

  it("exits 1 on a device of a kind its table of kinds lacks, naming the device, and computes it with no other kind's rule", () => {
    const dir = unzip(readFileSync(join(packPath, "..", "pack.zip")));
    const file = join(dir, "plan.json");
    const plan = JSON.parse(readFileSync(file, "utf8")) as { devices: { name: string; kind: string }[] };
    plan.devices[1].kind = "toy";
    writeFileSync(file, JSON.stringify(plan));
    const out = run(dir, "--public-key", keyFile);
    expect(out.status, out.stdout).toBe(1);
    expect(out.stdout).toContain(
      `РАСХОДИТСЯ:  устройство ${plan.devices[1].name} — вид 'toy' этому verify.py неизвестен (нет в CLIMATE_DEVICE_KINDS)`,
    );
    expect(out.stdout).not.toContain("== Часы каждого устройства");
    rmSync(dir, { recursive: true, force: true });
  });

  it("exits 1 on a removed file, naming it", () => {
    const dir = unzip(readFileSync(join(packPath, "..", "pack.zip")));
    rmSync(join(dir, "minutes/13_EL-OWN.csv"));
    const out = run(dir, "--public-key", keyFile);
    expect(out.status, out.stdout).toBe(1);
    expect(out.stdout).toContain("РАСХОДИТСЯ:  файл minutes/13_EL-OWN.csv — его нет в пакете");
    rmSync(dir, { recursive: true, force: true });
  });

  it("is the same bytes on every download, and a reading changed after the period moves none of them", async () => {
    const first = readFileSync(join(packPath, "..", "pack.zip"));
    expect(Buffer.from(await download()).equals(first)).toBe(true);
    const facility = String(((await (await api(`climate-projects/${project}/`)).json()) as { facility: string }).facility);
    await push(facility, [{ sensor: "Q-F1", t: new Date(JUNE_1 + 15 * 60_000 + 30_000).toISOString(), value: 99 }]);
    expect(Buffer.from(await download()).equals(first)).toBe(true);
  });

  it("comes as parts within a lowered limit, one manifest over all; verify.py takes the parts and names a part left out", async () => {
    const limit = 60_000;
    h.deps.config.climatePackPartBytes = limit;
    let outer: Uint8Array;
    try {
      outer = await download();
    } finally {
      h.deps.config.climatePackPartBytes = undefined;
    }
    const dir = unzip(outer);
    const parts = readdirSync(dir).sort();
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(part).toMatch(/часть \d+ из \d+\.zip$/);
      expect(readFileSync(join(dir, part)).byteLength).toBeLessThanOrEqual(limit);
    }
    // verify.py and the manifest open the first part.
    const first = parts.find((p) => p.includes("часть 1 из"))!;
    const listed = spawnSync("python3", ["-m", "zipfile", "-l", join(dir, first)], { encoding: "utf8" }).stdout;
    expect(listed).toContain("manifest.json");
    expect(listed).toContain("verify.py");
    spawnSync("python3", ["-m", "zipfile", "-e", join(dir, first), join(dir, "script")]);
    const verify = (names: string[]) =>
      spawnSync("python3", [join(dir, "script", "verify.py"), ...names.map((n) => join(dir, n)), "--public-key", keyFile], {
        encoding: "utf8",
        maxBuffer: 1 << 26,
      });
    const all = verify(parts);
    expect(all.status, all.stdout).toBe(0);
    const missing = verify(parts.filter((p) => !p.includes(`часть ${parts.length} из`)));
    expect(missing.status, missing.stdout).toBe(1);
    expect(missing.stdout).toContain("не передана часть пакета");
  });

  it("is made as a job for a long period where the host runs jobs: the job's file is the same zip", async () => {
    const job = newId();
    const worker = inProcessSpreadsheets(() => h.deps, { inlineLimitBytes: Number.POSITIVE_INFINITY });
    const actor = { id: staff.userId, company: staff.companyId, email: staff.email, role: "staff" as const };
    const state = await runJob(h.deps, worker, {
      op: "job",
      job,
      request: { op: "climate_pack", actor, project, period: period.id, partBytes: 100_000_000 },
    });
    expect(state).toMatchObject({ state: "done", progress: 100 });
    const stored = await h.deps.blobs.get(`exports/${staff.companyId}/jobs/${job}.zip`);
    expect(Buffer.from(stored!.body).equals(readFileSync(join(packPath, "..", "pack.zip")))).toBe(true);
    // 12 hours × 13 meters is far below a job's 20 000 meter-hours; another company's period is 404 first.
    expect(await climatePackNeedsJob(h.deps, { company: staff.companyId }, project, period.id)).toBe(false);
    await expect(climatePackNeedsJob(h.deps, { company: "another-company" }, project, period.id)).rejects.toMatchObject({
      kind: "not_found",
    });
  });

  it("is another company's: 404; an unknown period: 404", async () => {
    expect((await api(`climate-projects/${project}/periods/${period.id}/pack/`, { token: other })).status).toBe(404);
    const unknown = await api(`climate-projects/${project}/periods/0190f0f0-0000-7000-8000-000000000000/pack/`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { detail: string }).detail).toBe("Отчетный период не найден");
  });
  it("of an approved period is frozen: the project renamed and a reading changed after the approval move no byte of it; the period is flagged", async () => {
    await createUser(h.deps, {
      companyId: staff.companyId,
      email: "reviewer@climate-pack.test",
      password: "reviewer-password",
      role: "reviewer",
      first_name: "Ирина",
      last_name: "Проверкина",
    });
    const reviewer = ((await (await signIn(h, "reviewer@climate-pack.test", "reviewer-password")).json()) as { access: string }).access;
    const filled = await api(`climate-projects/${project}/periods/${period.id}/report/`, {
      method: "PATCH",
      json: { fields: FILLED_REPORT, version: 0 },
    });
    expect(filled.status, await filled.clone().text()).toBe(200);
    const current = (await (await api(`climate-projects/${project}/periods/${period.id}/`)).json()) as { version: number };
    const approved = await api(`climate-projects/${project}/periods/${period.id}/review/`, {
      method: "POST",
      token: reviewer,
      json: { action: "approve", version: current.version },
    });
    expect(approved.status, await approved.clone().text()).toBe(200);
    const first = await download();
    const dir = unzip(first);
    const out = run(dir, "--public-key", keyFile);
    expect(out.status, out.stdout).toBe(0);

    const stored = (await (await api(`climate-projects/${project}/`)).json()) as { version: number; facility: string };
    const renamed = await api(`climate-projects/${project}/`, {
      method: "PATCH",
      json: { name: "Переименован после утверждения", version: stored.version },
    });
    expect(renamed.status, await renamed.clone().text()).toBe(200);
    await push(stored.facility, [{ sensor: "C-F2", t: new Date(JUNE_1 + 65 * 60_000 + 30_000).toISOString(), value: 12 }]);
    await expect
      .poll(
        async () =>
          ((await (await api(`climate-projects/${project}/periods/${period.id}/`)).json()) as { readings_changed: unknown })
            .readings_changed,
        {
          timeout: 30_000,
        },
      )
      .not.toBeNull();
    expect(Buffer.from(await download()).equals(Buffer.from(first))).toBe(true);
    // The report is frozen with the period: the executor's fields are not written while it stands approved.
    const frozen = await api(`climate-projects/${project}/periods/${period.id}/report/`, {
      method: "PATCH",
      json: { fields: { s14_consultations: "не проводились" }, version: 0 },
    });
    expect(frozen.status).toBe(409);
    expect(((await frozen.json()) as { detail: string }).detail).toMatch(/^Период утвержден: отчет о реализации заморожен вместе с ним/);
    expect(Buffer.from(await download()).equals(Buffer.from(first))).toBe(true);
  });
});
