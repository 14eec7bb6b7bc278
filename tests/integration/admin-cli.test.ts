// `npm run admin -- …` as an operator runs it on a DATA_DIR: the commands in this process, the entry
// as a process of its own once.
import { afterAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PutItemCommand } from "@aws-sdk/client-dynamodb";
import * as keys from "@server/adapters/dynamodb/keys";
import { createCompany } from "@server/domain/company/users";
import { LOCAL_TABLE, openSharedStorage } from "@server/local/storage";
import type { StoredCalculation } from "@server/ports";
import { runAdmin } from "../support/admin-command";

const dataDir = mkdtempSync(join(tmpdir(), "admin-cli-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The command in this process, as `npm run admin` runs it on DATA_DIR, its output captured. */
const admin = (args: string[], env: Record<string, string> = {}) => runAdmin(dataDir, args, env);

/** The command as its own process (`npm run admin`'s entry), for what only a process shows: its exit
 *  code. Once: each start costs about 2,5 s of CPU, most of it tsx loading the server's modules. */
function adminProcess(args: string[]) {
  const out = spawnSync(process.execPath, ["--import", "tsx", "functions/src/admin/cli.ts", ...args], {
    encoding: "utf8",
    env: { ...process.env, DATA_DIR: dataDir, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
  });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

describe("admin command", () => {
  it("seeds the dictionaries and the default forecast models once", async () => {
    const first = await admin(["seed"]);
    expect(first.status, first.stderr).toBe(0);
    const [dictionaries, models] = first.stdout.match(/\d+/g)!.map(Number);
    expect(dictionaries).toBeGreaterThan(50);
    expect(models).toBe(2);
    const again = await admin(["seed"]);
    expect(again.stdout).toMatch(/справочников: 0; моделей прогноза: 0/);
  });

  it("creates the first admin, lists them, and its writes reach the audit trail through the same stream handler", async () => {
    const created = await admin([
      "create-user",
      "--company",
      "ООО Шахта",
      "--new-company",
      "--email",
      "admin@example.ru",
      "--password",
      "пароль-надежный",
      "--role",
      "admin",
    ]);
    expect(created.status, created.stderr).toBe(0);
    const listed = await admin(["list-users", "--company", "ООО Шахта"]);
    expect(listed.stdout).toContain("admin@example.ru");
    // A misspelt company makes none: it is refused with the names there are.
    const typo = await admin(["create-user", "--company", "ООО Шахтa", "--email", "typo@example.ru", "--password", "пароль-надежный"]);
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain("компания «ООО Шахтa» не найдена (есть: «ООО Шахта»); новую создает --new-company");
    const twice = await admin([
      "create-user",
      "--company",
      "ООО Шахта",
      "--new-company",
      "--email",
      "b@example.ru",
      "--password",
      "пароль-надежный",
    ]);
    expect(twice.stderr).toContain("--new-company: компания «ООО Шахта» уже есть");
    expect((await admin(["list-users"])).stdout).not.toMatch(/typo@|b@example|Шахтa/);

    const storage = await openSharedStorage(dataDir);
    const trail = await storage.repos.auditTrail.day(new Date().toISOString().slice(0, 10));
    await storage.close();
    expect(trail.some((e) => e.item_pk === "EMAIL#admin@example.ru" && e.event === "INSERT")).toBe(true);
  });

  it("prints the day's audit trail, and refuses a malformed day", async () => {
    const out = await admin(["audit-trail"]);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/INSERT\tEMAIL#admin@example\.ru EMAIL\t/);
    expect(out.stdout).toMatch(/Изменений за \d{4}-\d{2}-\d{2}: [1-9]\d*/);
    expect((await admin(["audit-trail", "--day", "2020-01-01"])).stdout).toMatch(/Изменений за 2020-01-01: 0/);
    const bad = await admin(["audit-trail", "--day", "вчера"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--day/);
  });

  it("reconciles the statistics with the table: reports drift, repairs it, then finds none", async () => {
    const storage = await openSharedStorage(dataDir);
    const company = (await storage.repos.companies.findByName("ООО Шахта"))!;
    const bogus = { year: "1999", projects_active: 2, projects_archived: 0, calculations: { torch_ch4: 1 }, total_co2e: 5 };
    expect(await storage.repos.statistics.repair(company.id, bogus, undefined, new Date().toISOString())).toBe(true);
    // And a list count of a project that has no such calculations.
    const list = { project: "nowhere", type: "torch_ch4", active: 2, archived: 0 };
    expect(await storage.repos.statistics.repairListCount(company.id, list, undefined, new Date().toISOString())).toBe(true);
    await storage.close();

    const dry = await admin(["reconcile-statistics", "--dry-run", "--settle-seconds", "0"]);
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/ООО Шахта .*: не исправлено/);
    expect(dry.stdout).toMatch(/1999: проекты 2\/0 → 0\/0, расчеты 1 → 0/);
    expect(dry.stdout).toMatch(/проект nowhere, расчеты torch_ch4: действующие 2 → 0, в архиве 0 → 0/);
    const fixed = await admin(["reconcile-statistics", "--company", "ооо шахта", "--settle-seconds", "0.1"]);
    expect(fixed.stdout).toMatch(/ООО Шахта .*: исправлено/);
    expect(fixed.stdout).toMatch(/с расхождениями: 1; исправлено лет и списков: 2/);
    expect((await admin(["reconcile-statistics", "--settle-seconds", "0"])).stdout).toMatch(/с расхождениями: 0/);
  });

  it("goes on past a company it cannot reconcile, lists what the stream could not apply and archives it on request", async () => {
    const storage = await openSharedStorage(dataDir);
    const company = (await storage.repos.companies.findByName("ООО Шахта"))!;
    const now = new Date().toISOString();
    const project = { id: "p-over", company: company.id, name: "Разрез", start_date: "2024-01-01", end_date: "2024-12-31" };
    await storage.repos.projects.create({ ...project, reporting_year: 2024, is_deleted: false, created_at: now, updated_at: now } as never);
    // A calculation the API now refuses (12.6 million t of CO2), stored straight through the repository.
    const calculation = {
      ...{ id: "c-over", type: "open_mining_co2", project: project.id, company: company.id, name: "Дизель" },
      ...{ is_active: true, is_deleted: false, version: 1, coefficients: {}, methodology_version: "2026.3" },
      ...{ inputs: { volume: 4_000_000, ef: 3.149 }, results: { res_co2: 12_596_000 } },
      ...{ created_at: now, created_by: "test", updated_at: now, updated_by: "test" },
    } as StoredCalculation;
    await storage.repos.calculations.create(calculation);
    // And a company whose year aggregate holds what no repair can take back.
    const broken = await createCompany({ repos: storage.repos, clock: { now: () => new Date() } } as never, { name: "ООО Сломанная" });
    const key = keys.companyStatisticsYear(broken.id, "1999");
    await storage.doc!.send(
      new PutItemCommand({
        TableName: LOCAL_TABLE,
        Item: { PK: { S: key.PK }, SK: { S: key.SK }, total_co2e: { N: "20000000000000000" } },
      }),
    );
    await storage.settled();
    await storage.close();

    const dry = await admin(["reconcile-statistics", "--dry-run", "--settle-seconds", "0"]);
    expect(dry.status).toBe(1);
    expect(dry.stdout).toMatch(/1999: проекты 0\/0 → 0\/0, расчеты 0 → 0, т CO2-экв\. 20000000000000000 → 0/);
    expect(dry.stdout).toMatch(/ООО Шахта \(.*\): проект p-over не учтен потоком таблицы: суммы проекта не помещаются в хранилище/);
    expect(dry.stdout).toMatch(/расчет c-over \(open_mining_co2, «Дизель»\): res_co2: «Выбросы CO2» — 12 596 000 т CO2, больше предела/);
    expect(dry.stdout).toMatch(/проектов, которые поток таблицы не смог учесть: 1/);

    const fixed = await admin(["reconcile-statistics", "--settle-seconds", "0", "--archive-unapplied"]);
    expect(fixed.stdout).toMatch(/ООО Шахта: расчет c-over перенесен в архив/);
    expect(fixed.stdout).not.toMatch(/не учтен потоком таблицы/);
    // The company no repair can write is reported, and the others are reconciled all the same.
    expect(fixed.stdout).toMatch(/ООО Сломанная \(.*\): не сверено: Значение: число вне допустимого диапазона/);
    expect(fixed.stdout).toMatch(/не сверено компаний: 1/);
    expect(fixed.status).toBe(1);
    const after = await openSharedStorage(dataDir);
    expect((await after.repos.calculations.get(company.id, "open_mining_co2", "c-over"))?.is_deleted).toBe(true);
    await after.close();
  });

  it("names the calculations that carried a line past its bound, and archives them on request", async () => {
    const storage = await openSharedStorage(dataDir);
    const company = (await storage.repos.companies.findByName("ООО Шахта"))!;
    const project = { id: "p-race", company: company.id, name: "Разрез наперегонки", start_date: "2024-01-01", end_date: "2024-12-31" };
    await storage.repos.projects.create({
      ...project,
      reporting_year: 2024,
      is_deleted: false,
      created_at: "2024-01-01",
      updated_at: "2024-01-01",
    } as never);
    // Twelve of 999 999.99 t of CO2 each, as parallel creates made them before the bound was held
    // on a counter: 11 999 999.88 t on one line, past what the storage holds (about 9 007 199 t).
    for (let i = 0; i < 12; i++) {
      const at = `2024-02-01T10:00:${String(i).padStart(2, "0")}.000Z`;
      await storage.repos.calculations.create({
        ...{
          id: `c-race-${String(i).padStart(2, "0")}`,
          type: "open_mining_co2",
          project: project.id,
          company: company.id,
          name: `Дизель ${i}`,
        },
        ...{ is_active: true, is_deleted: false, version: 1, coefficients: {}, methodology_version: "2026.3" },
        ...{ inputs: { volume: 300_000, ef: 3.3333333 }, results: { res_co2: 999_999.99 } },
        ...{ created_at: at, created_by: "test", updated_at: at, updated_by: "test" },
      } as StoredCalculation);
    }
    await storage.settled();
    await storage.close();

    const dry = await admin(["reconcile-statistics", "--dry-run", "--settle-seconds", "0"]);
    expect(dry.stdout).toMatch(
      /ООО Шахта \(.*\): проект p-race не учтен потоком таблицы: строка «CO2 по коду 1\.A\.[^»]+»: 11 999 999,88 т, больше предела 5 000 000 т/,
    );
    // The five that fit are not named; the seven after them are, each with the line it passes.
    for (let i = 0; i < 5; i++) expect(dry.stdout).not.toContain(`c-race-0${i}`);
    expect(dry.stdout).toMatch(
      /расчет c-race-05 \(open_mining_co2, «Дизель 5»\): строка «CO2 по коду 1\.A\.[^»]+» проекта: 4 999 999,95 т до него и 999 999,99 т его, больше предела 5 000 000 т/,
    );
    for (let i = 5; i < 12; i++) expect(dry.stdout).toContain(`расчет c-race-${String(i).padStart(2, "0")} (open_mining_co2`);

    const fixed = await admin(["reconcile-statistics", "--settle-seconds", "0", "--archive-unapplied"]);
    for (let i = 5; i < 12; i++) expect(fixed.stdout).toContain(`ООО Шахта: расчет c-race-${String(i).padStart(2, "0")} перенесен в архив`);
    expect(fixed.stdout).not.toMatch(/проект p-race не учтен/);
    const after = await openSharedStorage(dataDir);
    const active = await after.repos.calculations.listAllByProject(company.id, project.id, "open_mining_co2", "active");
    expect(active.map((c) => c.id)).toEqual(["c-race-00", "c-race-01", "c-race-02", "c-race-03", "c-race-04"]);
    // The project's sums are kept again.
    const sums = await after.repos.statistics.projectInventorySums(company.id, project.id);
    expect(Object.entries(sums).find(([key]) => key.startsWith("t:"))?.[1]).toBe(4_999_999_950_000_000);
    await after.close();
  });

  it("lists the projects whose reporting year their dates do not cover, and changes none", async () => {
    const storage = await openSharedStorage(dataDir);
    const company = (await storage.repos.companies.findByName("ООО Шахта"))!;
    const now = new Date().toISOString();
    const project = { id: "p-year-out", company: company.id, name: "Шахта 2025", start_date: "2025-01-01", end_date: "2025-12-31" };
    await storage.repos.projects.create({ ...project, reporting_year: 2026, is_deleted: false, created_at: now, updated_at: now } as never);
    await storage.settled();
    await storage.close();

    const out = await admin(["check-projects"]);
    expect(out.stdout).toMatch(
      /ООО Шахта: проект p-year-out «Шахта 2025» \(2025-01-01 – 2025-12-31\): отчетный год 2026 вне дат проекта \(2025 год\)/,
    );
    expect(out.stdout).toMatch(/Проектов с отчетным годом вне дат: 1/);
    expect(out.status).toBe(1);
    const after = await openSharedStorage(dataDir);
    expect((await after.repos.projects.get(company.id, "p-year-out"))?.reporting_year).toBe(2026);
    await after.close();
  });

  it("asks for the uploads bucket before seeding an AWS table", async () => {
    const out = await admin(["seed"], { STORAGE: "dynamodb", TABLE_NAME: "FugitiveEmissions-dev-Table", AWS_REGION: "eu-central-1" });
    expect(out.status).toBe(2);
    expect(out.stderr).toMatch(/UPLOADS_BUCKET/);
  });

  it("answers a usage error with exit code 2", () => {
    const out = adminProcess(["no-such-command"]);
    expect(out.status).toBe(2);
    expect(out.stderr).toMatch(/неизвестная команда no-such-command/);
  });
});
