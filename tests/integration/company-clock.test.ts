// The company's clock: a company in Kemerovo (UTC+7) approves its year at 01:24 on 26.11 local time,
// still 25.11 in UTC and in Moscow. Its passports (PDF and xlsx), its project export and its
// verification pack print 26.11.2026, the pack's files are stamped with the local time, and a company
// in Moscow reads 25.11.2026 on the same clock. The zone is a requisite: chosen from the list,
// anything else refused.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@server/domain/company/users";
import { signIn } from "../support/admin";
import { createHarness, type Harness } from "../support/harness";
import { fieldName } from "@server/contract/field-names";

// 01:24 on 26.11.2026 in Kemerovo; 21:24 on 25.11.2026 in Moscow.
const NOW = new Date("2026-11-25T18:24:00.000Z");

let h: Harness;
let token: string;
let reviewer: string;
let project: { id: string };

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

const post = (path: string, body: unknown, as = token) => h.request(`/api/v1/${path}`, { method: "POST", token: as, json: body });
const bytes = async (res: Response) => {
  expect(res.status, res.status === 200 ? "" : await res.clone().text()).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
};

async function cellsOf(data: Uint8Array, sheet: string): Promise<string[]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer);
  const cells: string[] = [];
  workbook.getWorksheet(sheet)!.eachRow((row) => cells.push((row.values as unknown[]).slice(1).map(String).join(" | ")));
  return cells;
}

function pdfText(data: Uint8Array): string {
  const file = join(mkdtempSync(join(tmpdir(), "clock-")), "passport.pdf");
  writeFileSync(file, data);
  const out = spawnSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" });
  expect(out.status, out.stderr).toBe(0);
  return out.stdout.replace(/\s+/g, " ");
}

beforeAll(async () => {
  h = await createHarness({}, { now: () => NOW });
  const user = await h.signedInUser("ООО «Кузбасс по местному времени»");
  token = user.token;
  await createUser(h.deps, {
    companyId: user.companyId,
    email: "reviewer@clock.example",
    password: "reviewer-password",
    role: "reviewer",
    first_name: "Мария",
    last_name: "Проверяющая",
  });
  reviewer = ((await (await signIn(h, "reviewer@clock.example", "reviewer-password")).json()) as { access: string }).access;
  const pit = await json<{ id: string }>(await post("facilities/", { name: "Разрез «Часовой»", kind: "open_pit" }), 201);
  project = await json<{ id: string }>(
    await post("projects/create_project/", { name: "Разрез 2025", start_date: "2025-01-01", end_date: "2025-12-31", facility: pit.id }),
    201,
  );
  await json(
    await post("open_mining_ch4/", {
      name: "Метан разреза",
      project: project.id,
      volume: 3_100_000,
      dictionary_items: { get_open_mining_ch4: 1 },
    }),
    201,
  );
});

afterAll(() => h?.close());

describe("a company's time zone", () => {
  it("is the Kuzbass's for a new company, chosen from the list and nothing else", async () => {
    const me = await json<{ company: { time_zone: string; version?: number } }>(await h.request("/api/v1/users/get_me/", { token }), 200);
    expect(me.company.time_zone).toBe("Asia/Novokuznetsk");
    const patch = (body: unknown) => h.request("/api/v1/users/company/", { method: "PATCH", token, json: body });
    expect((await json<{ detail: string }>(await patch({ time_zone: "Mars/Olympus" }), 400)).detail).toBe(
      `${fieldName("time_zone")}: выберите часовой пояс из списка`,
    );
    await json(await patch({ time_zone: "Europe/Moscow" }), 200);
    await json(await patch({ time_zone: "Asia/Novokuznetsk" }), 200);
  });
});

describe("a year approved at 01:24 on 26.11 local time (25.11 in UTC)", () => {
  beforeAll(async () => {
    const review = async () =>
      (await json<{ review: { version: number } }>(await h.request("/api/v1/inventory/?year=2025", { token }), 200)).review.version;
    await json(await post("inventory/2025/review/", { action: "send_to_review", version: await review() }), 200);
    await json(await post("inventory/2025/review/", { action: "approve", version: await review() }, reviewer), 200);
  });

  it("prints the local date in the xlsx passport: approval, the trail, the signing and the date made", async () => {
    const cells = (await cellsOf(await bytes(await h.request("/api/v1/inventory/2025/report/?format=xlsx", { token })), "Паспорт")).join(
      "\n",
    );
    expect(cells).toContain("Утверждена 26.11.2026, Мария Проверяющая");
    expect(cells).toContain("26.11.2026: утверждено (Мария Проверяющая)");
    expect(cells).toContain("Дата подписания | 26.11.2026 (утверждение версии 1)");
    expect(cells).toContain("Сформировано 26.11.2026.");
    expect(cells).not.toContain("25.11.2026");
  });

  it("prints the local date in the PDF passport", async () => {
    const text = pdfText(await bytes(await h.request("/api/v1/inventory/2025/report/?format=pdf", { token })));
    expect(text).toContain("Утверждена 26.11.2026");
    expect(text).toContain("Дата подписания: 26.11.2026");
    expect(text).toContain("Сформировано 26.11.2026");
    expect(text).not.toContain("25.11.2026");
  });

  it("prints the local date in the project export, the project's dates as ДД.ММ.ГГГГ", async () => {
    const cells = await cellsOf(await bytes(await h.request(`/api/v1/projects/${project.id}/export_to_xlsx/`, { token })), "Проект");
    expect(cells).toEqual(
      expect.arrayContaining([
        "Дата начала | 01.01.2025",
        "Дата окончания | 31.12.2025",
        "Дата создания | 26.11.2026",
        "Дата выгрузки | 26.11.2026",
      ]),
    );
  });

  it("stamps the pack's files with the local time and puts the local-dated passports in it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "clock-pack-"));
    writeFileSync(join(dir, "pack.zip"), await bytes(await h.request("/api/v1/inventory/2025/versions/1/pack/", { token })));
    const read = spawnSync(
      "python3",
      [
        "-c",
        "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print(set(i.date_time[:5] for i in z.infolist())); z.extractall(sys.argv[2])",
        join(dir, "pack.zip"),
        join(dir, "pack"),
      ],
      { encoding: "utf8" },
    );
    expect(read.status, read.stderr).toBe(0);
    expect(read.stdout.trim()).toBe("{(2026, 11, 26, 1, 24)}");
    const cells = (await cellsOf(new Uint8Array(readFileSync(join(dir, "pack", "passport.xlsx"))), "Паспорт")).join("\n");
    expect(cells).toContain("Дата подписания | 26.11.2026 (утверждение версии 1)");
    // The machine files keep the instant as it is.
    expect(JSON.parse(readFileSync(join(dir, "pack", "version.json"), "utf8")).approved_at).toBe(NOW.toISOString());
  });

  it("prints the date of a company in Moscow on the same clock as 25.11.2026", async () => {
    await json(await h.request("/api/v1/users/company/", { method: "PATCH", token, json: { time_zone: "Europe/Moscow" } }), 200);
    const cells = (await cellsOf(await bytes(await h.request("/api/v1/inventory/2025/report/?format=xlsx", { token })), "Паспорт")).join(
      "\n",
    );
    expect(cells).toContain("Дата подписания | 25.11.2026 (утверждение версии 1)");
  });
});
