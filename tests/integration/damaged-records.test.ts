// A stored calculation of the wrong shape (one without results, one whose inputs are not a record)
// no longer breaks its company: every read and export leaves it out instead of answering 500 or
// stopping mid-file, the year's inventory names it in a check, the admin command lists it, reading
// it says what is wrong, and it can be archived.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { read as readWorkbook, utils as sheetUtils } from "xlsx";
import * as keys from "@server/adapters/dynamodb/keys";
import { startLocalServer, type LocalServer } from "@server/local/server";
import { LOCAL_TABLE, openSharedStorage } from "@server/local/storage";
import { DEMO, signInAsDemo } from "../support/server";
import { runAdmin } from "../support/admin-command";

const dataDir = mkdtempSync(join(tmpdir(), "fugitive-damaged-"));
let server: LocalServer;
let token: string;
let project: string;
let company: string;
const ids: Record<"whole" | "noResults" | "badInputs", string> = { whole: "", noResults: "", badInputs: "" };
const versions: Record<string, number> = {};

const call = (path: string, init: RequestInit = {}) =>
  fetch(`${server.url}/api/${path}`, {
    ...init,
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}`, ...init.headers },
  });

/** Every sheet of a workbook (xlsx or xls) as text: SheetJS reads the file whole or throws. */
const workbookText = (bytes: ArrayBuffer) => {
  const book = readWorkbook(new Uint8Array(bytes));
  return book.SheetNames.map((name) => sheetUtils.sheet_to_csv(book.Sheets[name])).join("\n");
};

beforeAll(async () => {
  server = await startLocalServer({ dataDir, port: 0, demo: DEMO });
  token = (await signInAsDemo(server.url)).access;
  company = ((await (await call("v1/users/get_me/")).json()) as { company: { id: string } }).company.id;
  const created = await call("v1/projects/create_project/", {
    method: "POST",
    body: JSON.stringify({ name: "Северная 2025", start_date: "2025-01-01", end_date: "2025-12-31" }),
  });
  project = ((await created.json()) as { id: string }).id;
  const body = { project, volume: 40_000, p_co2: 1.8393, p_ch4: 0.668, ef_co2: 1, ef_ch4: 60 };
  for (const [key, name] of [
    ["whole", "Целый"],
    ["noResults", "Без результатов"],
    ["badInputs", "Со строкой вместо данных"],
  ] as const) {
    const res = await call("v1/underground/", { method: "POST", body: JSON.stringify({ ...body, name }) });
    expect(res.status).toBe(201);
    const calculation = (await res.json()) as { id: string; version: number };
    ids[key] = calculation.id;
    versions[key] = calculation.version;
  }
  // Stored of the wrong shape, straight in the table, as a tool or an older version might leave it.
  const storage = await openSharedStorage(dataDir);
  const damage = (id: string, update: string, values?: Record<string, unknown>) =>
    storage.doc!.send(
      new UpdateCommand({
        TableName: LOCAL_TABLE,
        Key: keys.calculation(company, "underground", id),
        UpdateExpression: update,
        ExpressionAttributeValues: values,
      }),
    );
  await damage(ids.noResults, "REMOVE results");
  await damage(ids.badInputs, "SET inputs = :s", { ":s": "сломано" });
  await storage.settled();
  await storage.close();
  await server.settled();
}, 120_000);

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("a stored calculation of the wrong shape", () => {
  it("is left out of the year's calculations, its uncertainty, the charts and the project's uncertainty", async () => {
    const listed = await call("v1/inventory/calculations/?year=2025&limit=100");
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { results: { id: string }[] }).results.map((c) => c.id)).toEqual([ids.whole]);
    const uncertainty = await call("v1/inventory/uncertainty/?year=2025");
    expect(uncertainty.status).toBe(200);
    const graphs = await call(`v1/projects/${project}/graphs/`);
    expect(graphs.status).toBe(200);
    expect(((await graphs.json()) as { underground: { id: string }[] }).underground.map((c) => c.id)).toEqual([ids.whole]);
    const projectUncertainty = await call(`v1/projects/${project}/uncertainty/`);
    expect(projectUncertainty.status).toBe(200);
    expect(((await projectUncertainty.json()) as { calculations: { id: string }[] }).calculations.map((c) => c.id)).toEqual([ids.whole]);
    const list = await call(`v1/underground/?project=${project}`);
    expect(list.status).toBe(200);
    expect(((await list.json()) as { results: { id: string }[] }).results.map((c) => c.id)).toEqual([ids.whole]);
  });

  it("is left out of the passport and every export, each a whole file", async () => {
    const passport = await call("v1/inventory/2025/report/?format=xlsx");
    expect(passport.status).toBe(200);
    const passportText = workbookText(await passport.arrayBuffer());
    expect(passportText).toContain("Целый");
    // Named only by the year's check the passport prints, never as a source.
    const naming = passportText.split("\n").filter((line) => line.includes("Без результатов"));
    expect(naming.length).toBeGreaterThan(0);
    for (const line of naming) expect(line).toContain("поврежден (нет результатов)");
    for (const format of ["xlsx", "xls"]) {
      const exported = await call(`v1/projects/${project}/export_to_${format}/?detail=true`);
      expect(exported.status, format).toBe(200);
      const text = workbookText(await exported.arrayBuffer());
      expect(text, format).toContain("Целый");
      expect(text, format).not.toContain("Без результатов");
      expect(text, format).not.toContain("Со строкой вместо данных");
    }
    const txt = await call(`v1/projects/${project}/export_to_txt/`);
    expect(txt.status).toBe(200);
    const text = await txt.text();
    expect(text).toContain("Целый");
    expect(text).not.toContain("Без результатов");
  });

  it("is named by the year's checks and listed by the admin command", async () => {
    const inventory = await call("v1/inventory/?year=2025");
    expect(inventory.status).toBe(200);
    const { checks } = (await inventory.json()) as { checks: { code: string; message: string; calculations: string[] }[] };
    const damaged = checks.filter((c) => c.code === "damaged_calculation");
    expect(damaged.map((c) => c.message).sort()).toEqual([
      expect.stringMatching(
        /^Расчет «Без результатов» проекта «Северная 2025» поврежден \(нет результатов\): он не входит в инвентаризацию/,
      ),
      expect.stringMatching(/^Расчет «Со строкой вместо данных» проекта «Северная 2025» поврежден \(исходные данные не в том виде\)/),
    ]);
    expect(damaged.flatMap((c) => c.calculations).sort()).toEqual([ids.noResults, ids.badInputs].sort());
    const admin = await runAdmin(dataDir, ["damaged-calculations"]);
    expect(admin.status, admin.stderr).toBe(1);
    expect(admin.stdout).toContain(`расчет ${ids.noResults} (underground, «Без результатов», проект ${project}): нет результатов`);
    expect(admin.stdout).toContain(
      `расчет ${ids.badInputs} (underground, «Со строкой вместо данных», проект ${project}): исходные данные не в том виде`,
    );
    expect(admin.stdout).toContain("Поврежденных расчетов: 2; в архиве: 0");
  });

  it("is read as damaged, cannot be edited, and can be archived, which takes it out of the checks", async () => {
    const read = await call(`v1/underground/${ids.noResults}/`);
    expect(read.status).toBe(409);
    expect(await read.json()).toEqual({
      detail: "Расчет «Без результатов» поврежден (нет результатов): его можно только архивировать, затем ввести заново",
    });
    const edit = await call(`v1/underground/${ids.noResults}/`, {
      method: "PATCH",
      body: JSON.stringify({ volume: 1, version: versions.noResults }),
    });
    expect(edit.status).toBe(409);
    for (const key of ["noResults", "badInputs"] as const) {
      const archived = await call(`v1/underground/${ids[key]}/`, {
        method: "PATCH",
        body: JSON.stringify({ is_deleted: true, version: versions[key] }),
      });
      expect(archived.status, key).toBe(200);
      expect(await archived.json()).toMatchObject({ id: ids[key], is_deleted: true, version: versions[key] + 1 });
    }
    await server.settled();
    const inventory = (await (await call("v1/inventory/?year=2025")).json()) as { checks: { code: string }[] };
    expect(inventory.checks.filter((c) => c.code === "damaged_calculation")).toEqual([]);
    const admin = await runAdmin(dataDir, ["damaged-calculations"]);
    expect(admin.status).toBe(0);
    expect(admin.stdout).toContain("Поврежденных расчетов: 0; в архиве: 2");
  });
});
