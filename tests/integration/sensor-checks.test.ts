// an earlier round over HTTP on the real local DynamoDB engine: a methane sensor's checks (D94, the
// «Метан» maintenance journal). The АГК electrician records a failed check in the journal's columns,
// signed in their duty; the operator and the deputy head of ВТБ for АГК sign it (the duties given by the
// administrator, PATCH-free: at the user's creation); a duty signs once (409), a person in one column only
// (409), a user without the duty gets 403, a reviewer 403, another company 404; an expired control
// mixture is refused 400 naming the field; a correction follows the check and is listed with it; the
// check is stored under the facility (keys.sensorCheck) as written.
import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sensorCheck, sensorCheckOnce } from "@server/adapters/dynamodb/keys";
import { LOCAL_TABLE } from "@server/local/storage";
import { createHarness, type Harness } from "../support/harness";
import { signIn, signedInAdmin } from "../support/admin";

let h: Harness;
let admin: string;
let companyId: string;
let facility = "";
let sensor = "";
const tokens: Record<string, string> = {};
const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const post = (path: string, body: unknown, token: string) => h.request(path, { method: "POST", token, json: body });
const get = (path: string, token: string) => h.request(path, { token });
/** The instant's UTC day and the next: the handovers' list and export keep those of the facility's own
 *  days, which east of UTC is the next one from its midnight on (after 17:00 UTC at UTC+7). */
const daysOf = (at: string) => [at.slice(0, 10), new Date(Date.parse(at) + 86_400_000).toISOString().slice(0, 10)] as const;

async function member(key: string, body: Record<string, unknown>) {
  const email = `${key}@agk-check.ru`;
  await json(await post(`/api/v1/admin/companies/${companyId}/users/`, { email, password: "correct-horse-7", ...body }, admin), 201);
  tokens[key] = ((await (await signIn(h, email, "correct-horse-7")).json()) as { access: string }).access;
}

const FAILED = {
  at: "2026-03-03T10:00:00+07:00",
  kind: "planned",
  reading_pct: 0.61,
  reference_pct: 0.4,
  reference_instrument: "ШИ-11 № 4512",
  button_test_ok: true,
  test_gas_pct: 1.5,
  test_gas_cylinder: { number: "Б-117", valid_to: "2026-12-31" },
  alarm_ok: false,
  cutoff_ok: true,
  result: "failed",
  fault: "Не срабатывает сигнализация от ПГС 1,5 %",
  measures: "Датчик снят в ремонт, установлен резервный",
  planned_work: "Замена термокаталитического элемента",
};

beforeAll(async () => {
  h = await createHarness();
  ({ token: admin } = await signedInAdmin(h));
  let owner: string;
  ({ companyId, token: owner } = await h.signedInUser("ООО «Проверки по HTTP»"));
  await member("operator", { first_name: "Ольга", last_name: "Кузнецова", duty: "agk_operator" });
  await member("electrician", { first_name: "Андрей", last_name: "Сидоров", duty: "agk_electrician" });
  await member("deputy", { first_name: "Виктор", last_name: "Орлов", duty: "deputy_head_agk" });
  await member("reviewer", { first_name: "Анна", last_name: "Смирнова", role: "reviewer", duty: "agk_operator" });
  facility = (
    await json<{ id: string }>(await post("/api/v1/facilities/", { name: "Шахта «Поверочная»", kind: "underground_mine" }, owner), 201)
  ).id;
  sensor = (
    await json<{ id: string }>(
      await post(
        `/api/v1/facilities/${facility}/sensors/`,
        { code: "М-7", kind: "methane", working: "Лава 12-1", place: "face_10_20m", warning: 1, alarm: 2 },
        owner,
      ),
      201,
    )
  ).id;
  tokens.owner = owner;
});
afterAll(() => h.close());

interface Check {
  id: string;
  result_text: string;
  shift: string;
  signed: boolean;
  deviation_pct: number | null;
  recorded_by: string;
  followed_by: string | null;
  signatures: Record<string, { by: string } | null>;
}

describe("a sensor's checks over HTTP (D94)", () => {
  const checks = () => `/api/v1/facilities/${facility}/sensors/${sensor}/checks/`;

  it("records, signs by three people, refuses a second signature, keeps what was written", async () => {
    const check = await json<Check>(await post(checks(), FAILED, tokens.electrician), 201);
    expect(check).toMatchObject({
      result_text: "датчик не прошел проверку",
      shift: "2026-03-03#2",
      deviation_pct: 0.21,
      recorded_by: "Сидоров А.",
      signed: false,
      signatures: { agk_electrician: { by: "Сидоров А." }, agk_operator: null, deputy_head_agk: null },
    });
    const sign = (duty: string, token: string) => post(`${checks()}${check.id}/sign/`, { duty }, token);
    expect((await sign("agk_operator", tokens.owner)).status).toBe(403);
    expect((await sign("agk_operator", tokens.reviewer)).status).toBe(403);
    expect((await sign("agk_electrician", tokens.electrician)).status).toBe(409);
    await json(await sign("agk_operator", tokens.operator), 200);
    expect((await sign("agk_operator", tokens.operator)).status).toBe(409);
    const signed = await json<Check>(await sign("deputy_head_agk", tokens.deputy), 200);
    expect(signed.signed).toBe(true);
    const text = JSON.stringify(signed);
    expect(text).not.toContain("@agk-check.ru");

    // Stored as written under the facility, with the e-mails kept for the record.
    const stored = await h.doc!.send(new GetCommand({ TableName: LOCAL_TABLE, Key: sensorCheck(companyId, facility, check.id) }));
    expect(stored.Item).toMatchObject({ result: "failed", alarm_ok: false, fault: FAILED.fault, version: 3 });

    // A correction follows it and is listed with it; a second correction of it is refused.
    const fixed = await json<Check>(
      await post(
        checks(),
        {
          ...FAILED,
          at: "2026-03-05T11:00:00+07:00",
          kind: "after_repair",
          alarm_ok: true,
          result: "passed",
          fault: "",
          follows: check.id,
        },
        tokens.operator,
      ),
      201,
    );
    expect((await post(checks(), { ...FAILED, follows: check.id }, tokens.operator)).status).toBe(409);
    const listed = await json<{ results: Check[] }>(await get(`${checks()}?from=2026-03-01&to=2026-03-10`, tokens.owner), 200);
    expect(listed.results.map((c) => [c.id, c.followed_by])).toEqual([
      [fixed.id, null],
      [check.id, fixed.id],
    ]);
    const ofFacility = await json<{ facility_name: string; results: Check[] }>(
      await get(`/api/v1/facilities/${facility}/sensor-checks/?from=2026-03-05&to=2026-03-05`, tokens.reviewer),
      200,
    );
    expect(ofFacility.facility_name).toBe("Шахта «Поверочная»");
    expect(ofFacility.results.map((c) => c.id)).toEqual([fixed.id]);
  });

  it("refuses a reviewer's record, an expired mixture (400 at its field), another company's (404)", async () => {
    expect((await post(checks(), FAILED, tokens.reviewer)).status).toBe(403);
    const expired = await post(checks(), { ...FAILED, test_gas_cylinder: { number: "Б-1", valid_to: "2026-03-01" } }, tokens.operator);
    const refused = await json<{ detail: string; errors: { field: string }[] }>(expired, 400);
    expect(refused.detail).toContain("срок годности контрольной смеси истек 01.03.2026");
    expect(refused.errors.map((e) => e.field)).toEqual(["test_gas_cylinder.valid_to"]);
    const { token: stranger } = await h.signedInUser("ООО «Чужая»");
    expect((await get(checks(), stranger)).status).toBe(404);
    expect((await post(checks(), FAILED, stranger)).status).toBe(404);
    expect((await get(`/api/v1/facilities/${facility}/sensor-checks/`, stranger)).status).toBe(404);
  });
});

// the documents over HTTP, each rendered by the spreadsheet worker in a heavy-work slot.
describe("the instruments' documents over HTTP", () => {
  const base = () => `/api/v1/facilities/${facility}`;
  async function file(path: string, type: string) {
    const res = await get(path, tokens.reviewer);
    expect(res.status, res.status === 200 ? "" : await res.clone().text()).toBe(200);
    expect(res.headers.get("content-type")).toBe(type);
    expect(res.headers.get("content-disposition")).toContain("attachment");
    return new Uint8Array(await res.arrayBuffer());
  }
  async function rowsOf(bytes: Uint8Array) {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as never);
    const rows: unknown[][] = [];
    book.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return rows;
  }

  it("gives the «Метан» journal of a period as xlsx (figures as numbers) and PDF", async () => {
    const rows = await rowsOf(await file(`${base()}/sensor-checks/export/?format=xlsx&from=2026-03-01&to=2026-03-10`, XLSX_TYPE));
    const header = rows[1];
    const failed = rows.find((r) => r[header.indexOf("Результат")] === "датчик не прошел проверку")!;
    expect(failed[header.indexOf("Датчик")]).toBe("М-7");
    expect(failed[header.indexOf("Маршрут (выработка)")]).toBe("Лава 12-1");
    expect(failed[header.indexOf("Показание датчика, % об.")]).toBe(0.61);
    expect(failed[header.indexOf("Подпись: Оператор АГК")]).toMatch(/^Кузнецова О\./);
    const pdf = await file(`${base()}/sensor-checks/export/?format=pdf&from=2026-03-01&to=2026-03-10`, "application/pdf");
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe("%PDF-");
    expect((await get(`${base()}/sensor-checks/export/?format=doc`, tokens.reviewer)).status).toBe(400);
    const { token: stranger } = await h.signedInUser("ООО «Чужая для документов»");
    expect((await get(`${base()}/sensor-checks/export/?format=xlsx`, stranger)).status).toBe(404);
  });

  it("gives the handovers as xlsx and PDF with both signatures", async () => {
    const made = await json<{ id: string; at: string }>(
      await post(`${base()}/handovers/`, { remarks: "ВМП-2 в резерве" }, tokens.operator),
      201,
    );
    await json(await post(`${base()}/handovers/${made.id}/take/`, {}, tokens.electrician), 200);
    const [day, next] = daysOf(made.at);
    const rows = await rowsOf(await file(`${base()}/handovers/export/?format=xlsx&from=${day}&to=${next}`, XLSX_TYPE));
    const header = rows[1];
    const row = rows.find((r) => r[header.indexOf("Замечания")] === "ВМП-2 в резерве")!;
    expect(row[header.indexOf("Смену сдал (ФИО, время)")]).toMatch(/^Кузнецова О\./);
    expect(row[header.indexOf("Смену принял (ФИО, время)")]).toMatch(/^Сидоров А\./);
    const pdf = await file(`${base()}/handovers/export/?format=pdf&from=${day}&to=${next}`, "application/pdf");
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe("%PDF-");
  });

  it("gives the sensor register with its metrology as xlsx", async () => {
    await json(
      await post(
        `${base()}/sensors/${sensor}/verifications/`,
        {
          instrument_type: "ДМС 03",
          register_number: "12345-06",
          serial: "0419",
          verified_on: "2025-03-01",
          valid_to: "2026-03-02",
          certificate: "С-419",
        },
        tokens.operator,
      ),
      201,
    );
    const rows = await rowsOf(await file(`${base()}/sensor-register/export/`, XLSX_TYPE));
    const header = rows[1];
    const m7 = rows.find((r) => r[0] === "М-7")!;
    expect(m7[header.indexOf("Номер в Госреестре СИ")]).toBe("12345-06");
    expect(m7[header.indexOf("Поверка действительна до")]).toBe("02.03.2026");
    expect(String(m7[header.indexOf("Состояние поверки")])).toMatch(/^(вне поверки с 03\.03\.2026|поверен до 02\.03\.2026)$/);
  });
});

// The hostile review an earlier round on the real local DynamoDB engine: an acknowledgement is a promise.
// Twenty creates at once — ten checks each sent twice, shuffled — store ten, each answered with the one
// stored; two corrections of one check at once keep one (409 to the other); three signatures at once are all
// kept; twenty handovers at once (ten, each twice) store ten; two corrections of one at once keep one.
describe("the records written at once over HTTP", () => {
  const checks = () => `/api/v1/facilities/${facility}/sensors/${sensor}/checks/`;
  const handovers = () => `/api/v1/facilities/${facility}/handovers/`;
  const shuffled = <T>(items: T[]) =>
    [...items, ...items].map((b, i) => ({ b, key: (i * 7) % (2 * items.length) })).sort((x, y) => x.key - y.key);

  it("stores each check once, one correction of two, every signature", async () => {
    const bodies = Array.from({ length: 10 }, (_, i) => ({
      ...FAILED,
      at: `2026-02-10T${String(i + 10)}:00:00+07:00`,
      result: "passed",
      alarm_ok: true,
      fault: "",
    }));
    const sent = shuffled(bodies);
    const answers = await Promise.all(sent.map(({ b }) => post(checks(), b, tokens.electrician)));
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 201));
    const answered = await Promise.all(answers.map((r) => r.json() as Promise<Check & { at: string }>));
    const listed = await json<{ results: Check[] }>(await get(`${checks()}?from=2026-02-10&to=2026-02-10`, tokens.owner), 200);
    expect(listed.results).toHaveLength(10);
    expect(new Set(answered.map((c) => c.id))).toEqual(new Set(listed.results.map((c) => c.id)));
    for (const [i, { b }] of sent.entries()) expect(Date.parse(answered[i].at)).toBe(Date.parse(b.at));

    const first = answered[0];
    const corrections = await Promise.all([
      post(checks(), { ...bodies[0], reading_pct: 0.5, follows: first.id }, tokens.operator),
      post(checks(), { ...bodies[0], reading_pct: 0.55, follows: first.id }, tokens.deputy),
    ]);
    expect(corrections.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(((await corrections.find((r) => r.status === 409)!.json()) as { detail: string }).detail).toBe(
      "Эту проверку уже исправили: исправление следует за последней записью",
    );
    const after = await json<{ results: (Check & { follows: string | null })[] }>(
      await get(`${checks()}?from=2026-02-10&to=2026-02-10`, tokens.owner),
      200,
    );
    expect(after.results.filter((c) => c.follows === first.id)).toHaveLength(1);

    const second = answered.find((c) => c.id !== first.id)!;
    const signs = await Promise.all([
      post(`${checks()}${second.id}/sign/`, { duty: "agk_operator" }, tokens.operator),
      post(`${checks()}${second.id}/sign/`, { duty: "deputy_head_agk" }, tokens.deputy),
    ]);
    expect(signs.map((r) => r.status)).toEqual([200, 200]);
    const read = (await json<{ results: Check[] }>(await get(`${checks()}?from=2026-02-10&to=2026-02-10`, tokens.owner), 200)).results.find(
      (c) => c.id === second.id,
    )!;
    expect(read.signed).toBe(true);
  });

  it("stores each handover once and one correction of two", async () => {
    const sent = shuffled(Array.from({ length: 10 }, (_, i) => ({ remarks: `Параллельная передача ${i + 1}` })));
    // The handover is heavy work (x-cost heavy): a request past the slots is 429 and sent again after a moment.
    const posted = async (body: unknown) => {
      for (;;) {
        const res = await post(handovers(), body, tokens.deputy);
        if (res.status !== 429) return res;
        await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 80));
      }
    };
    const answers = await Promise.all(sent.map(({ b }) => posted(b)));
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 201));
    const answered = await Promise.all(answers.map((r) => r.json() as Promise<{ id: string; remarks: string; at: string }>));
    for (const [i, { b }] of sent.entries()) expect(answered[i].remarks).toBe(b.remarks);
    const [day, next] = daysOf(answered[0].at);
    const listed = await json<{ results: { id: string; remarks: string; corrects: string | null }[] }>(
      await get(`${handovers()}?from=${day}&to=${next}`, tokens.owner),
      200,
    );
    const mine = listed.results.filter((h) => h.remarks.startsWith("Параллельная передача"));
    expect(mine).toHaveLength(10);
    expect(new Set(answered.map((h) => h.id))).toEqual(new Set(mine.map((h) => h.id)));

    const corrections = await Promise.all([
      posted({ remarks: "Исправление А", corrects: answered[0].id }),
      posted({ remarks: "Исправление Б", corrects: answered[0].id }),
    ]);
    expect(corrections.map((r) => r.status).sort()).toEqual([201, 409]);
    const after = await json<{ results: { corrects: string | null }[] }>(
      await get(`${handovers()}?from=${day}&to=${next}`, tokens.owner),
      200,
    );
    expect(after.results.filter((h) => h.corrects === answered[0].id)).toHaveLength(1);
  });
});

// A hostile review: every field of the bodies validated, refused as JSON {"detail"} in
// Russian with 400 — a field the body does not have (it was dropped quietly: «result_text» or «signatures»
// sent with a check were ignored and 201 answered), an id past an id's length in `follows`, `corrects` or a
// bypassed sensor (refused now by the schema: it reached the storage key, which DynamoDB refuses past
// 1 024 bytes with an error, where dynalite found nothing), a time that is no ISO instant
// («Tue, 03 Mar 2026 10:00:00» was taken), the same sensor bypassed twice; a time without a zone is read on
// the company's clock (it was read on the server's).
describe("the bodies of checks and handovers, validated over HTTP", () => {
  const checks = () => `/api/v1/facilities/${facility}/sensors/${sensor}/checks/`;
  const passed = { ...FAILED, at: "2026-02-12T10:00:00+07:00", result: "passed", alarm_ok: true, fault: "" };
  const refused = async (res: Response, field: string) => {
    const body = await json<{ detail: string; errors?: { field: string }[] }>(res, 400);
    expect(body.detail).toMatch(/[а-я]/);
    expect(JSON.stringify(body)).toContain(field);
    return body.detail;
  };

  it("refuses unknown fields, an id too long, a time that is no instant; reads a time without a zone on the company's clock", async () => {
    expect(
      await refused(await post(checks(), { ...passed, signatures: { deputy_head_agk: "x" } }, tokens.operator), "signatures"),
    ).toContain("такого поля нет");
    await refused(
      await post(checks(), { ...passed, test_gas_cylinder: { number: "Б-1", valid_to: "2026-12-31", ok: true } }, tokens.operator),
      "ok",
    );
    await refused(await post(checks(), { ...passed, follows: "x".repeat(2_000) }, tokens.operator), "follows");
    await refused(await post(checks(), { ...passed, at: "Thu, 12 Feb 2026 10:00:00" }, tokens.operator), "at");
    await refused(await post(checks(), { ...passed, reference_pct: 100.5 }, tokens.operator), "reference_pct");
    const made = await json<Check & { id: string }>(await post(checks(), passed, tokens.operator), 201);
    await refused(await post(`${checks()}${made.id}/sign/`, { duty: "agk_electrician", as: "deputy_head_agk" }, tokens.electrician), "as");
    const local = await json<{ at: string; shift: string }>(
      await post(checks(), { ...passed, at: "2026-02-12T15:00:00" }, tokens.operator),
      201,
    );
    expect(local).toMatchObject({ at: "2026-02-12T08:00:00.000Z", shift: "2026-02-12#2" });

    const handovers = `/api/v1/facilities/${facility}/handovers/`;
    await refused(await post(handovers, { remarks: "", handed_by: "Иванов И." }, tokens.operator), "handed_by");
    await refused(await post(handovers, { corrects: "x".repeat(2_000) }, tokens.operator), "corrects");
    await refused(await post(handovers, { bypassed: [{ sensor: "x".repeat(2_000), note: "" }] }, tokens.operator), "bypassed");
    await refused(
      await post(
        handovers,
        {
          bypassed: [
            { sensor, note: "ремонт" },
            { sensor, note: "ремонт" },
          ],
        },
        tokens.operator,
      ),
      "bypassed",
    );
    await refused(
      await post(`/api/v1/facilities/${facility}/journal-signatures/`, { shift: "2026-02-12#1", by: "x" }, tokens.operator),
      "by",
    );
  });
});

// A hostile review: a record is a record, tried on every route. No route but the signature
// changes a check, none but the take-over a handover (PUT, PATCH, DELETE answer 404/405 and change nothing);
// a check of another facility's sensor is not signed under this one, another facility's handover not taken
// or corrected, another sensor's check not followed; another company's user gets 404 on each route.
describe("a record is a record over HTTP", () => {
  it("is changed by no other route, no other facility's path, no other company", async () => {
    const other = (
      await json<{ id: string }>(
        await post("/api/v1/facilities/", { name: "Шахта «Соседняя»", kind: "underground_mine" }, tokens.owner),
        201,
      )
    ).id;
    const otherSensor = (
      await json<{ id: string }>(
        await post(
          `/api/v1/facilities/${other}/sensors/`,
          { code: "М-1", kind: "methane", working: "Лава 1", place: "face_10_20m", warning: 1, alarm: 2 },
          tokens.owner,
        ),
        201,
      )
    ).id;
    const body = { ...FAILED, at: "2026-02-14T10:00:00+07:00" };
    const here = await json<Check>(await post(`/api/v1/facilities/${facility}/sensors/${sensor}/checks/`, body, tokens.electrician), 201);
    const there = await json<Check>(
      await post(`/api/v1/facilities/${other}/sensors/${otherSensor}/checks/`, body, tokens.electrician),
      201,
    );
    const handover = await json<{ id: string }>(
      await post(`/api/v1/facilities/${other}/handovers/`, { remarks: "Соседняя" }, tokens.operator),
      201,
    );
    const stored = async () =>
      (await h.doc!.send(new GetCommand({ TableName: LOCAL_TABLE, Key: sensorCheck(companyId, facility, here.id) }))).Item;
    const before = await stored();

    const checkPath = `/api/v1/facilities/${facility}/sensors/${sensor}/checks/${here.id}/`;
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      const res = await h.request(checkPath, { method, token: tokens.deputy, json: { ...body, result: "passed", alarm_ok: true } });
      expect([404, 405], `${method} ${res.status}`).toContain(res.status);
      const res2 = await h.request(`/api/v1/facilities/${other}/handovers/${handover.id}/`, {
        method,
        token: tokens.deputy,
        json: { remarks: "x" },
      });
      expect([404, 405], `${method} handover ${res2.status}`).toContain(res2.status);
    }
    expect(await stored()).toEqual(before);
    // Another facility's check under this facility's sensor, the sensor under another facility: 404.
    expect(
      (await post(`/api/v1/facilities/${facility}/sensors/${sensor}/checks/${there.id}/sign/`, { duty: "agk_operator" }, tokens.operator))
        .status,
    ).toBe(404);
    expect(
      (await post(`/api/v1/facilities/${other}/sensors/${sensor}/checks/${here.id}/sign/`, { duty: "agk_operator" }, tokens.operator))
        .status,
    ).toBe(404);
    expect((await post(`/api/v1/facilities/${facility}/handovers/${handover.id}/take/`, {}, tokens.electrician)).status).toBe(404);
    expect((await post(`/api/v1/facilities/${facility}/handovers/`, { corrects: handover.id }, tokens.operator)).status).toBe(400);
    expect(
      (await post(`/api/v1/facilities/${facility}/sensors/${sensor}/checks/`, { ...body, follows: there.id }, tokens.operator)).status,
    ).toBe(400);
    expect(
      (await post(`/api/v1/facilities/${facility}/handovers/`, { bypassed: [{ sensor: otherSensor, note: "чужой" }] }, tokens.operator))
        .status,
    ).toBe(400);
    // Another company: 404 on every route of the records.
    const { token: stranger } = await h.signedInUser("ООО «Чужая для записей»");
    for (const [path, sent] of [
      [`/api/v1/facilities/${facility}/sensors/${sensor}/checks/${here.id}/sign/`, { duty: "agk_operator" }],
      [`/api/v1/facilities/${other}/handovers/`, { remarks: "x" }],
      [`/api/v1/facilities/${other}/handovers/${handover.id}/take/`, {}],
      [`/api/v1/facilities/${other}/journal-signatures/`, { shift: "2026-02-14#1" }],
      [
        `/api/v1/facilities/${facility}/sensors/${sensor}/verifications/`,
        {
          ...{ instrument_type: "Т", register_number: "1", serial: "1" },
          verified_on: "2026-01-01",
          valid_to: "2027-01-01",
          certificate: "1",
        },
      ],
    ] as const) {
      const res = await post(path, sent, stranger);
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/[а-я]/);
    }
    for (const path of [
      `/api/v1/facilities/${other}/handovers/`,
      `/api/v1/facilities/${other}/journal-signatures/?date=2026-02-14`,
      `/api/v1/facilities/${facility}/sensor-checks/due/`,
      `/api/v1/facilities/${facility}/sensors/${sensor}/verifications/`,
    ])
      expect((await get(path, stranger)).status, path).toBe(404);
  });
});

// A once item left by a write that failed after taking it (its record never written): a correction of that
// check meets it, waits for the record a moment and is refused while the item is fresh; after 60 s the
// item is taken over and the correction written.
describe("a once item whose record was never written", () => {
  it("refuses while fresh, is taken over when stale", async () => {
    const checks = `/api/v1/facilities/${facility}/sensors/${sensor}/checks/`;
    const body = { ...FAILED, at: "2026-02-16T10:00:00+07:00" };
    const first = await json<Check>(await post(checks, body, tokens.electrician), 201);
    const key = sensorCheckOnce(companyId, facility, `follows#${first.id}`);
    const leave = (at: string) =>
      h.doc!.send(
        new PutCommand({ TableName: LOCAL_TABLE, Item: { ...key, id: "0190a000-0000-7000-8000-000000000001", digest: "x", at } }),
      );
    await leave(new Date().toISOString());
    const fresh = await post(checks, { ...body, follows: first.id }, tokens.operator);
    expect(fresh.status).toBe(409);
    await leave(new Date(Date.now() - 61_000).toISOString());
    const taken = await json<Check & { follows: string }>(await post(checks, { ...body, follows: first.id }, tokens.operator), 201);
    expect(taken.follows).toBe(first.id);
    const held = await h.doc!.send(new GetCommand({ TableName: LOCAL_TABLE, Key: key }));
    expect(held.Item?.id).toBe(taken.id);
  });
});
