// an earlier round over HTTP on the real local DynamoDB engine: the day of tests/support/journal-day.ts pushed by
// the facility's user gives the АГК operator's journal (GET v1/telemetry/journal/, JSON, xlsx and PDF
// with the same figures), its general and local gassings, their registration by the dispatcher (POST
// v1/telemetry/gassings/{id}/register/: who and when kept; closing refused 400 naming an unticked
// notification) and the gassing book of a period as xlsx (the book's own rules: gassing-book.test.ts); another company's user reads and registers none
// of it. The rules on the in-memory repositories: functions/src/domain/monitoring/derive/journal.test.ts.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { formatNumber } from "@server/export/txt-writer";
import { createHarness, type Harness } from "../support/harness";
import { signedInAdmin } from "../support/admin";
import { JOURNAL_CODES, JOURNAL_DATE, JOURNAL_SENSORS, iso, local, meanOver, readingsOf, validMinutes } from "../support/journal-day";

let h: Harness;
let staff: string;
let other: string;
let facility: { id: string };

interface Gassing {
  id: string;
  start: string;
  end: string | null;
  max: number;
  sensors: string[];
  kind: string;
  registered_by: string | null;
  registered_at: string | null;
  notified: Record<string, boolean>;
  comment: string;
  closed: boolean;
  sudden: boolean;
}
interface Journal {
  sensors: {
    code: string;
    hourly: (number | null)[];
    shifts: (number | null)[];
    day: number | null;
    alarm: number | null;
    limit: number | null;
  }[];
  gassings: Gassing[];
}

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const post = (path: string, body: unknown, token = staff) => h.request(path, { method: "POST", token, json: body });
const journalPath = (format = "") => `/api/v1/telemetry/journal/?facility=${facility.id}&date=${JOURNAL_DATE}${format}`;

beforeAll(async () => {
  h = await createHarness();
  ({ token: staff } = await h.signedInUser("ООО «Журнал по HTTP»"));
  ({ token: other } = await h.signedInUser("ООО «Чужой журнал»"));
  facility = await json(await post("/api/v1/facilities/", { name: "Шахта «Журнальная»", kind: "underground_mine" }), 201);
  await json<{ id: string }>(
    await post(`/api/v1/facilities/${facility.id}/points/`, { name: "Вентиляционный ствол", kind: "ventilation_shaft" }),
    201,
  );
  for (const body of JOURNAL_SENSORS()) await json(await post(`/api/v1/facilities/${facility.id}/sensors/`, body), 201);
  for (const code of JOURNAL_CODES) {
    await json(await post("/api/v1/telemetry/readings/", { facility: facility.id, readings: readingsOf(code) }), 202);
  }
  await monitoringIdle(h.deps);
});
afterAll(() => h.close());

describe("GET v1/telemetry/journal/", () => {
  it("answers the day's means of valid minute means as computed independently, and its gassings", async () => {
    const journal = await json<Journal>(await h.request(journalPath(), { token: staff }), 200);
    expect(journal.sensors.map((s) => s.code)).toEqual(["М-7", "М-8", "М-9"]);
    for (const s of journal.sensors) {
      const valid = validMinutes(s.code);
      s.hourly.forEach((mean, hour) => expect(mean).toBeCloseTo(meanOver(valid, local(hour), local(hour + 1))!, 9));
      s.shifts.forEach((mean, i) => expect(mean).toBeCloseTo(meanOver(valid, local(8 * i), local(8 * i + 8))!, 9));
      expect(s.day).toBeCloseTo(meanOver(valid, local(0), local(24))!, 9);
    }
    expect(journal.gassings.map((g) => [g.kind, g.sensors, g.start, g.end])).toEqual([
      ["общее", ["М-7", "М-8"], iso(local(3, 10)), iso(local(3, 30))],
      ["местное", ["М-9"], iso(local(10, 0)), iso(local(10, 5))],
      // D88: the spike D58 sets aside for the means is a reading of the book, marked.
      ["местное", ["М-9"], iso(local(14, 0)), iso(local(14, 1))],
    ]);
    expect(journal.gassings.map((g) => g.sudden)).toEqual([false, false, true]);
    expect(journal.gassings[0].max).toBeCloseTo(1.301, 12);
  });

  it("gives the xlsx and the PDF with the same figures, named for the facility and the day", async () => {
    const journal = await json<Journal>(await h.request(journalPath(), { token: staff }), 200);
    const xlsx = await h.request(journalPath("&format=xlsx"), { token: staff });
    expect(xlsx.status).toBe(200);
    expect(decodeURIComponent(xlsx.headers.get("content-disposition") ?? "")).toContain(
      "Журнал оператора АГК Шахта «Журнальная» 02.03.2026.xlsx",
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await xlsx.arrayBuffer()) as never);
    const pdf = await h.request(journalPath("&format=pdf"), { token: staff });
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const dir = mkdtempSync(join(tmpdir(), "journal-http-"));
    writeFileSync(join(dir, "j.pdf"), new Uint8Array(await pdf.arrayBuffer()));
    const pages = execFileSync("pdftotext", ["-layout", join(dir, "j.pdf"), "-"], { encoding: "utf8" }).split("\f");
    const second = book.getWorksheet("Смена 2")!;
    journal.sensors.forEach((s, i) => {
      const figures = [s.limit, ...s.hourly.slice(8, 16), s.shifts[1], s.day] as number[];
      const cells = (second.getRow(3 + i).values as unknown[]).slice(4);
      cells.slice(0, figures.length).forEach((cell, k) => expect(cell as number).toBeCloseTo(figures[k], 12));
      // the unit and where the limit comes from; D87: the norm of the meter's place,
      // whatever its A, with its act, point and edition.
      expect(cells[figures.length]).toBe("% об.");
      expect(cells[figures.length + 1]).toEqual(expect.stringMatching(/^норма в выработке и ее исходящей струе — .*приказ № 507/));
      const line = pages[1].split("\n").find((l) => l.trimStart().startsWith(s.code))!;
      expect(line.match(/\d+,\d{2}/g)).toEqual(figures.map((f) => formatNumber(f, 2)));
    });
    expect(pages[1]).toContain("Начальник участка ВТБ");
  });

  it("refuses a day not begun, and another company's user", async () => {
    const res = await h.request(`/api/v1/telemetry/journal/?facility=${facility.id}&date=2099-01-01`, { token: staff });
    expect((await json<{ detail: string }>(res, 400)).detail).toBe("Дата: сутки еще не начались");
    expect((await h.request(journalPath(), { token: other })).status).toBe(404);
  });
});

describe("POST v1/telemetry/gassings/{id}/register/", () => {
  it("refuses to close while a notification is unticked, naming it; keeps who and when; closes with all ticked", async () => {
    const journal = await json<Journal>(await h.request(journalPath(), { token: staff }), 200);
    const general = journal.gassings[0];
    const path = `/api/v1/telemetry/gassings/${general.id}/register/`;
    const notified = { chief_engineer: true, head_ab: false, head_section: true, rostekhnadzor: true };
    const book = { cause: "Остановка ВМП", type: "technological", measures: "Лава остановлена" };
    const refused = await json<{ detail: string }>(await post(path, { notified, comment: "Лава остановлена", ...book, close: true }), 400);
    expect(refused.detail).toBe("Оповещены: нельзя закрыть: не отмечено, что оповещены начальник участка АБ");
    await json(await post(path, { notified: { head_ab: true } }, other), 404);
    const registered = await json<Gassing>(await post(path, { notified, comment: "Лава остановлена" }), 200);
    // Named by surname and initials (gassing-book.test.ts); this user gave none, and is never named by e-mail.
    expect(registered).toMatchObject({ registered_by: "ФИО не указано в профиле", closed: false, comment: "Лава остановлена" });
    const closed = await json<Gassing>(await post(path, { notified: { head_ab: true }, ...book, close: true }), 200);
    expect(closed).toMatchObject({ closed: true, registered_at: registered.registered_at });
    const again = await json<Journal>(await h.request(journalPath(), { token: staff }), 200);
    expect(again.gassings[0]).toEqual(closed);
  });

  it("lists the gassing book of a period, and gives it as xlsx", async () => {
    const path = `/api/v1/telemetry/gassings/?facility=${facility.id}&from=2026-03-01&to=2026-03-03`;
    const list = await json<{ results: Gassing[] }>(await h.request(path, { token: staff }), 200);
    expect(list.results.map((g) => [g.kind, g.closed])).toEqual([
      ["общее", true],
      ["местное", false],
      ["местное", false],
    ]);
    const xlsx = await h.request(`${path}&format=xlsx`, { token: staff });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await xlsx.arrayBuffer()) as never);
    const sheet = book.getWorksheet("Книга загазирований")!;
    expect((sheet.getRow(3).values as unknown[]).slice(6, 10)).toEqual([
      "Лава 12-1",
      "М-7 (В 10–20 м от забоя), М-8 (Исходящая струя очистной выработки)",
      "М-7, М-8",
      "общее",
    ]);
    expect((sheet.getRow(4).values as unknown[]).slice(6, 10)).toEqual([
      "Штрек 5",
      "М-9 (У забоя (призабойное пространство))",
      "М-9",
      "местное",
    ]);
    expect((await h.request(path, { token: other })).status).toBe(404);
  });
});

// the limits by the act in force, on a server whose clock reads 02.01.2027: the safety
// rules' Appendix 3 (Order 507) has ended, Decree 315's norms stand for a working and a gas-suction line.
describe("GET and POST v1/reference/methane-limits/", () => {
  it("holds no edition on 02.01.2027 until an administrator confirms one; staff may not", async () => {
    const later = await createHarness({}, { now: () => new Date("2027-01-02T03:00:00Z") });
    try {
      const { token } = await later.signedInUser("ООО «После 507»");
      const rows = await json<
        { kind: string; place: string; limit_pct: number; valid_to: string | null; in_force: boolean; standing: string | null }[]
      >(await later.request("/api/v1/reference/methane-limits/", { token }), 200);
      expect(rows.map((r) => [r.kind, r.place, r.limit_pct, r.valid_to, r.in_force, r.standing])).toEqual([
        ["edition", "intake", 0.5, "2027-01-01", false, "last_edition"],
        ["edition", "working", 1, "2027-01-01", false, null],
        ["edition", "wing_outgoing", 0.75, "2027-01-01", false, "last_edition"],
        ["edition", "local_accumulation", 2, "2027-01-01", false, "last_edition"],
        ["edition", "suction_pipeline", 3.5, "2027-01-01", false, null],
        ["rule", "working", 1, null, true, "rule"],
        ["rule", "suction_pipeline", 3.5, null, true, "rule"],
      ]);
      const edition = {
        act: "Новая редакция правил",
        edition: "Редакция с 01.01.2027",
        valid_from: "2027-01-01",
        rows: [
          { place: "intake", limit_pct: 0.5 },
          { place: "working", limit_pct: 1 },
          { place: "wing_outgoing", limit_pct: 0.75 },
          { place: "local_accumulation", limit_pct: 2 },
          { place: "suction_pipeline", limit_pct: 3.5 },
        ],
      };
      const refused = await later.request("/api/v1/reference/methane-limits/", { method: "POST", token, json: edition });
      expect(refused.status).toBe(403);
      const { token: admin } = await signedInAdmin(later);
      const confirmed = await json<{ applied: boolean; standing: string | null; confirmed_by: string | null }[]>(
        await later.request("/api/v1/reference/methane-limits/", { method: "POST", token: admin, json: edition }),
        201,
      );
      expect(confirmed.filter((r) => r.applied).map((r) => r.standing)).toEqual(["edition", "edition", "edition", "edition", "edition"]);
      expect(confirmed.slice(5, 10).every((r) => r.confirmed_by?.includes("@"))).toBe(true);
    } finally {
      await later.close();
    }
  });
});

describe("the journal's and the register's files through the heavy-file path", () => {
  it("one company's second file waits for its first, as report files do (12 journal PDFs took another's report to 1,3-2,9 s)", async () => {
    const spreadsheets = h.deps.spreadsheets;
    const render = spreadsheets.monitoringFile.bind(spreadsheets);
    const renderBook = spreadsheets.gassingBook.bind(spreadsheets);
    const rendering: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    spreadsheets.monitoringFile = async (request) => {
      rendering.push(request.kind);
      await gate;
      return render(request);
    };
    // The gassing book is read and rendered by the worker in one call.
    spreadsheets.gassingBook = async (actor, query) => {
      rendering.push("gassings");
      await gate;
      return renderBook(actor, query);
    };
    try {
      const first = h.request(journalPath("&format=pdf"), { token: staff });
      const second = h.request(`/api/v1/telemetry/gassings/?facility=${facility.id}&from=${JOURNAL_DATE}&to=${JOURNAL_DATE}&format=xlsx`, {
        token: staff,
      });
      await expect.poll(() => rendering.length).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(rendering.length).toBe(1);
      open();
      const answers = await Promise.all([first, second]);
      expect(answers.map((res) => res.status)).toEqual([200, 200]);
      expect(rendering.sort()).toEqual(["gassings", "journal"]);
    } finally {
      spreadsheets.monitoringFile = render;
      spreadsheets.gassingBook = renderBook;
    }
  });
});
