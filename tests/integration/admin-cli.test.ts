// `npm run admin -- …` as an operator runs it: a process of its own on a DATA_DIR.
import { afterAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSharedStorage } from "@server/local/storage";

const dataDir = mkdtempSync(join(tmpdir(), "admin-cli-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function admin(args: string[], env: Record<string, string> = {}) {
  const out = spawnSync(process.execPath, ["--import", "tsx", "functions/src/admin/cli.ts", ...args], {
    encoding: "utf8",
    env: { ...process.env, DATA_DIR: dataDir, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true", ...env },
  });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

describe("admin command", () => {
  it("seeds the dictionaries and the default forecast models once", () => {
    const first = admin(["seed"]);
    expect(first.status, first.stderr).toBe(0);
    const [dictionaries, models] = first.stdout.match(/\d+/g)!.map(Number);
    expect(dictionaries).toBeGreaterThan(50);
    expect(models).toBe(2);
    const again = admin(["seed"]);
    expect(again.stdout).toMatch(/справочников: 0; моделей прогноза: 0/);
  });

  it("creates the first admin, lists them, and its writes reach the audit trail through the same stream handler", async () => {
    const created = admin([
      "create-user",
      "--company",
      "ООО Шахта",
      "--email",
      "admin@example.ru",
      "--password",
      "пароль-надежный",
      "--role",
      "admin",
    ]);
    expect(created.status, created.stderr).toBe(0);
    const listed = admin(["list-users", "--company", "ООО Шахта"]);
    expect(listed.stdout).toContain("admin@example.ru");

    const storage = await openSharedStorage(dataDir);
    const trail = await storage.repos.auditTrail.day(new Date().toISOString().slice(0, 10));
    await storage.close();
    expect(trail.some((e) => e.item_pk === "EMAIL#admin@example.ru" && e.event === "INSERT")).toBe(true);
  });

  it("prints the day's audit trail, and refuses a malformed day", () => {
    const out = admin(["audit-trail"]);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/INSERT\tEMAIL#admin@example\.ru EMAIL\t/);
    expect(out.stdout).toMatch(/Изменений за \d{4}-\d{2}-\d{2}: [1-9]\d*/);
    expect(admin(["audit-trail", "--day", "2020-01-01"]).stdout).toMatch(/Изменений за 2020-01-01: 0/);
    const bad = admin(["audit-trail", "--day", "вчера"]);
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

    const dry = admin(["reconcile-statistics", "--dry-run", "--settle-seconds", "0"]);
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/ООО Шахта .*: не исправлено/);
    expect(dry.stdout).toMatch(/1999: проекты 2\/0 → 0\/0, расчеты 1 → 0/);
    expect(dry.stdout).toMatch(/проект nowhere, расчеты torch_ch4: действующие 2 → 0, в архиве 0 → 0/);
    const fixed = admin(["reconcile-statistics", "--company", "ооо шахта", "--settle-seconds", "0.1"]);
    expect(fixed.stdout).toMatch(/ООО Шахта .*: исправлено/);
    expect(fixed.stdout).toMatch(/с расхождениями: 1; исправлено лет и списков: 2/);
    expect(admin(["reconcile-statistics", "--settle-seconds", "0"]).stdout).toMatch(/с расхождениями: 0/);
  });

  it("asks for the uploads bucket before seeding an AWS table", () => {
    const out = admin(["seed"], { STORAGE: "dynamodb", TABLE_NAME: "FugitiveEmissions-dev-Table", AWS_REGION: "eu-central-1" });
    expect(out.status).toBe(2);
    expect(out.stderr).toMatch(/UPLOADS_BUCKET/);
  });

  it("answers a usage error with exit code 2", () => {
    const out = admin(["no-such-command"]);
    expect(out.status).toBe(2);
    expect(out.stderr).toMatch(/неизвестная команда no-such-command/);
  });
});
