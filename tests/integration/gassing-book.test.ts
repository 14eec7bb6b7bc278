// an earlier round over HTTP on the real local DynamoDB engine: the gassing book («Книга учета загазирований»)
// of the day of tests/support/journal-day.ts. The dispatcher's entry takes the cause, the type, the
// losses, who cleared the gas and who investigated, the measures; closing is refused 400 naming each
// empty field in Russian; a closed entry does not change (409); a reviewer may not write one (403); the
// confirmations are given by the users an administrator gave that duty (PATCH v1/admin/…/users/{id}/),
// once each; people by surname and initials, never by e-mail; the entry is stored without an expiry;
// the book as xlsx (read back) and PDF (pdftotext) through the heavy-file path.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gassingRegistration } from "@server/adapters/dynamodb/keys";
import { LOCAL_TABLE } from "@server/local/storage";
import { createHarness, type Harness } from "../support/harness";
import { signIn, signedInAdmin } from "../support/admin";
import { JOURNAL_CODES, JOURNAL_DATE, JOURNAL_SENSORS, readingsOf } from "../support/journal-day";

interface Entry {
  id: string;
  registered_by: string | null;
  closed: boolean;
  closed_by: string | null;
  duration_min: number | null;
  cause: string;
  type: string | null;
  losses: { development_m: number; coal_t: number };
  measures: string;
  confirmations: Record<string, { by: string; at: string } | null>;
}

let h: Harness;
let admin: string;
let companyId: string;
let facility: { id: string };
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const post = (path: string, body: unknown, token: string) => h.request(path, { method: "POST", token, json: body });
const bookPath = (format = "") => `/api/v1/telemetry/gassings/?facility=${facility.id}&from=2026-03-01&to=2026-03-03${format}`;

/** A user of the company made by the administrator, with a name (and a role or duty), signed in. */
async function member(key: string, body: Record<string, unknown>): Promise<{ id: string }> {
  const email = `${key}@kuz-glub.ru`;
  const user = await json<{ id: string }>(
    await post(`/api/v1/admin/companies/${companyId}/users/`, { email, password: "correct-horse-7", ...body }, admin),
    201,
  );
  tokens[key] = ((await (await signIn(h, email, "correct-horse-7")).json()) as { access: string }).access;
  ids[key] = user.id;
  return user;
}

beforeAll(async () => {
  h = await createHarness();
  ({ token: admin } = await signedInAdmin(h));
  ({ companyId } = await h.signedInUser("ООО «Книга по HTTP»"));
  await member("olga", { first_name: "Ольга Ивановна", last_name: "Кузнецова" });
  await member("anna", { first_name: "Анна", last_name: "Смирнова", role: "reviewer" });
  await member("chief", { first_name: "Игорь Петрович", last_name: "Семенов" });
  facility = await json(await post("/api/v1/facilities/", { name: "Шахта «Книжная»", kind: "underground_mine" }, tokens.olga), 201);
  for (const body of JOURNAL_SENSORS()) await json(await post(`/api/v1/facilities/${facility.id}/sensors/`, body, tokens.olga), 201);
  for (const code of JOURNAL_CODES)
    await json(await post("/api/v1/telemetry/readings/", { facility: facility.id, readings: readingsOf(code) }, tokens.olga), 202);
  await h.settled();
});
afterAll(() => h.close());

describe("the gassing book over HTTP", () => {
  let general: string;
  const register = (body: unknown, token = tokens.olga) => post(`/api/v1/telemetry/gassings/${general}/register/`, body, token);
  const confirm = (duty: string, token: string) => post(`/api/v1/telemetry/gassings/${general}/confirm/`, { duty }, token);
  const ALL = { chief_engineer: true, head_ab: true, head_section: true, rostekhnadzor: true };

  it("refuses to close while the cause, the type or the measures are empty, naming each in Russian; a reviewer may not write", async () => {
    const journal = await json<{ gassings: Entry[] }>(
      await h.request(`/api/v1/telemetry/journal/?facility=${facility.id}&date=${JOURNAL_DATE}`, { token: tokens.olga }),
      200,
    );
    general = journal.gassings[0].id;
    const refused = await json<{ detail: string; errors: { field: string }[] }>(await register({ notified: ALL, close: true }), 400);
    expect(refused.detail).toBe(
      "Причина загазирования: нельзя закрыть: не указана причина загазирования; Тип: нельзя закрыть: не указан вид загазирования (технологическое или аварийное); Меры: нельзя закрыть: не указаны принятые меры",
    );
    expect(refused.errors.map((e) => e.field)).toEqual(["cause", "type", "measures"]);
    const onlyMeasures = await json<{ detail: string }>(
      await register({ notified: ALL, cause: "Остановка ВМП", type: "technological", close: true }),
      400,
    );
    expect(onlyMeasures.detail).toBe("Меры: нельзя закрыть: не указаны принятые меры");
    expect((await json<{ detail: string }>(await register({ notified: {}, type: "minor" }), 400)).detail).toContain("вид загазирования");
    await json(await register({ notified: ALL, cause: "x" }, tokens.anna), 403);
  });

  // when and by whom each addressee was notified; never before the gassing began (03:10).
  it("keeps when and by whom each was notified, refusing a time before the gassing began at its field", async () => {
    const early = await json<{ detail: string; errors: { field: string }[] }>(
      await register({ notified: { head_ab: { at: "2026-03-02T03:00:00+07:00", by: "Иванов И. И." } } }),
      400,
    );
    expect(early.detail).toBe("Оповещены, Начальник АБ: время оповещения раньше начала загазирования (02.03.2026 03:10)");
    expect(early.errors.map((e) => e.field)).toEqual(["notified.head_ab"]);
    const given = await json<{ notified: Record<string, { at: string; by: string | null } | null> }>(
      await register({ notified: { head_ab: { at: "2026-03-02T03:20:00+07:00", by: "Иванов И. И." } } }),
      200,
    );
    expect(given.notified).toEqual({
      chief_engineer: null,
      head_ab: { at: "2026-03-01T20:20:00.000Z", by: "Иванов И. И." },
      head_section: null,
      rostekhnadzor: null,
    });
  });

  it("registers the entry by name, never by e-mail, and closes it; a closed entry does not change (409)", async () => {
    const entry = await json<Entry>(
      await register({
        notified: ALL,
        cause: "Остановка вентилятора местного проветривания",
        type: "technological",
        losses: { development_m: 2.5, coal_t: 340 },
        cleared_by: "Горный мастер Петров П. П.",
        investigated_by: "Комиссия участка АБ",
      }),
      200,
    );
    expect(entry).toMatchObject({ registered_by: "Кузнецова О. И.", closed: false, losses: { development_m: 2.5, coal_t: 340 } });
    const closed = await json<Entry>(await register({ notified: {}, measures: "ВМП запущен, лава проветрена", close: true }), 200);
    expect(closed).toMatchObject({ closed: true, closed_by: "Кузнецова О. И.", duration_min: 20, type: "technological" });
    expect(JSON.stringify(closed)).not.toContain("@");
    const again = await json<{ detail: string }>(await register({ notified: {}, measures: "другие меры" }), 409);
    expect(again.detail).toBe("Запись книги загазирований закрыта и больше не изменяется");
  });

  it("takes the confirmations only from the users with that duty, once each", async () => {
    await json(await confirm("chief_engineer", tokens.chief), 403);
    const patched = await json<{ duty: string }>(
      await h.request(`/api/v1/admin/companies/${companyId}/users/${ids.chief}/`, {
        method: "PATCH",
        token: admin,
        json: { duty: "chief_engineer" },
      }),
      200,
    );
    expect(patched.duty).toBe("chief_engineer");
    await json(await confirm("head_ab", tokens.chief), 403);
    const confirmed = await json<Entry>(await confirm("chief_engineer", tokens.chief), 200);
    expect(confirmed.confirmations).toMatchObject({ chief_engineer: { by: "Семенов И. П." }, head_ab: null, head_section: null });
    await json(await confirm("chief_engineer", tokens.chief), 409);
    const book = await json<{ results: Entry[] }>(await h.request(bookPath(), { token: tokens.anna }), 200);
    expect(book.results[0].confirmations.chief_engineer?.by).toBe("Семенов И. П.");
  });

  it("stores the entry without an expiry", async () => {
    const item = await h.doc!.send(new GetCommand({ TableName: LOCAL_TABLE, Key: gassingRegistration(companyId, general) }));
    expect(item.Item).toMatchObject({ closed: true, cause: "Остановка вентилятора местного проветривания" });
    expect(item.Item).not.toHaveProperty("expires_at");
  });

  it("gives the book as xlsx in its columns and as PDF with the signature lines", async () => {
    const xlsx = await h.request(bookPath("&format=xlsx"), { token: tokens.olga });
    expect(xlsx.status).toBe(200);
    expect(decodeURIComponent(xlsx.headers.get("content-disposition") ?? "")).toContain(
      "Книга учета загазирований Шахта «Книжная» 01.03.2026 03.03.2026.xlsx",
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await xlsx.arrayBuffer()) as never);
    const sheet = workbook.getWorksheet("Книга загазирований")!;
    const header = (sheet.getRow(2).values as unknown[]).slice(1);
    expect(header).toContain("Причина");
    expect(header).toContain("Главный инженер");
    const row = (sheet.getRow(3).values as unknown[]).slice(1);
    expect(row[header.indexOf("Причина")]).toBe("Остановка вентилятора местного проветривания");
    expect(row[header.indexOf("Потери добычи, т")]).toBe(340);
    expect(row[header.indexOf("Главный инженер")]).toMatch(/^Семенов И\. П\., /);
    const pdf = await h.request(bookPath("&format=pdf"), { token: tokens.olga });
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const dir = mkdtempSync(join(tmpdir(), "gassing-book-http-"));
    writeFileSync(join(dir, "b.pdf"), new Uint8Array(await pdf.arrayBuffer()));
    const text = execFileSync("pdftotext", ["-layout", join(dir, "b.pdf"), "-"], { encoding: "utf8" });
    expect(text).toContain("Книга учета загазирований: Шахта «Книжная», 01.03.2026 — 03.03.2026");
    expect(text).toContain("Кузнецова О. И.");
    expect(text).toMatch(/Начальник участка АБ: _+ \(подпись\)/);
    expect(text).not.toContain("@");
  });
});
