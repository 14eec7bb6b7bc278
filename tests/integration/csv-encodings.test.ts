// A CSV as Russian Excel saves it («CSV (разделители — точки с запятой)»: Windows-1251, «;»,
// decimal commas, CRLF) uploaded for every file-based calculation through the real API, giving the
// same results as the same table in UTF-8; a file in another encoding is refused in words.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../support/harness";
import { openProjectFixture, readCalculation, type SignedInUser } from "../support/project-fixture";
import { encodeLegacy } from "../support/legacy-encoding";
import { CSV_ENCODING_MESSAGE } from "@server/files/tabular";
import type { Project } from "@server/contract/schemas/project";

let h: Harness;
let user: SignedInUser;
let project: Project;

beforeAll(async () => {
  ({ h, user, project } = await openProjectFixture("Шахта «Северная»"));
});
afterAll(() => h.close());

type Body = Record<string, unknown> & { id: string };

async function upload(type: string, fields: Record<string, string>, bytes: Uint8Array, name = "Книга1.csv") {
  const form = new FormData();
  form.set("project", project.id);
  form.set("name", `${type} ${name}`);
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set("file_data", new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "text/csv" }), name);
  return h.request(`/api/v1/${type}/`, { method: "POST", token: user.token, body: form });
}

const crlf = (lines: string[]) => lines.join("\r\n") + "\r\n";

const CASES: Array<{ type: string; fields: Record<string, string>; text: string; check: (body: Body) => void }> = [
  {
    type: "regres_methane",
    fields: { method: "xgboost" },
    text: crlf([
      // A column of its own beside the features, as a mine's sheet has.
      "id;x1;x2;x7;x8;x12;x13;x15;Примечание",
      "1;1\u00a0000,5;1\u00a0010;30,5;50;0,5;9\u00a0000;15,25;Замер после смены",
      "2;1\u00a0200;1\u00a0190;35;55,75;0,6;9\u00a0100;16;Датчик заменен",
    ]),
    check: (body) => {
      const rows = body.data as Array<Record<string, number>>;
      expect(rows.map((r) => [r.id, r.x1, r.x7, r.x15])).toEqual([
        [1, 1000.5, 30.5, 15.25],
        [2, 1200, 35, 16],
      ]);
      expect(rows.every((r) => typeof r.result === "number")).toBe(true);
    },
  },
  {
    type: "filling_blanks",
    fields: { name_value: "Метан, т", name_element: "Шахта" },
    text: crlf(["year;Шахта;Метан, т", "2019;Северная;100,5", "2020;Северная;", "2021;Северная;130,5", "2019;Южная «Глубокая»;10"]),
    check: (body) => {
      const elements = body.elements as Array<{ name: string; rows: Array<{ year: number; value: number }> }>;
      expect(elements.map((e) => e.name)).toEqual(["Северная", "Южная «Глубокая»"]);
      expect(elements[0].rows.map((r) => r.value)).toEqual([100.5, 115.5, 130.5]);
    },
  },
  {
    type: "sensitivity",
    fields: {},
    text: crlf([
      "year;volume;methane;element",
      "2020;1\u00a0000\u00a0000;10,5;Лава №1",
      "2021;1\u00a0200\u00a0000;9,25;Лава №1",
      "2022;1\u00a0100\u00a0000;11;Лава №1",
    ]),
    check: (body) => {
      const elements = body.elements as Array<{ name: string; data_sensitivity: Array<Record<string, number>> }>;
      expect(elements.map((e) => e.name)).toEqual(["Лава №1"]);
      expect(elements[0].data_sensitivity.map((r) => [r.year, r.volume])).toEqual([
        [2020, 1_000_000],
        [2021, 1_200_000],
        [2022, 1_100_000],
      ]);
    },
  },
];

const single = (type: string, id: string) => readCalculation<Body>(h, user.token, type, id);

/** What two uploads of the same table share: everything but the identity, the audit and the file. */
function results(body: Body): Record<string, unknown> {
  const { id: _id, name: _name, created_at: _c, updated_at: _u, file_data: _f, version: _v, ...rest } = body;
  return rest;
}

describe("CSV saved by Russian Excel (Windows-1251)", () => {
  it.each(CASES)("is read for $type like the same table in UTF-8", async ({ type, fields, text, check }) => {
    const cp1251 = encodeLegacy(text, "windows-1251");
    expect(() => new TextDecoder("utf-8", { fatal: true }).decode(cp1251)).toThrow();
    const fromCp1251 = await upload(type, fields, cp1251);
    expect(fromCp1251.status, await fromCp1251.clone().text()).toBe(201);
    const a = await single(type, ((await fromCp1251.json()) as Body).id);
    check(a);
    // The same table in UTF-8 with a BOM (Excel's «CSV UTF-8»).
    const fromUtf8 = await upload(type, fields, new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]));
    expect(fromUtf8.status).toBe(201);
    const b = await single(type, ((await fromUtf8.json()) as Body).id);
    expect(results(a)).toEqual(results(b));
    // The stored source file is the bytes uploaded, for download as they were.
    const file = await h.request(`/api/v1/${type}/${a.id}/file`, { token: user.token });
    expect(file.status).toBe(200);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(cp1251);
  });

  it.each(CASES)("refuses $type in KOI8-R with a message saying which encodings to use", async ({ type, fields, text }) => {
    // KOI8-R has no «», № and no-break space.
    const koi8 = encodeLegacy(
      text
        .replace(/[«»]/g, '"')
        .replace(/№/g, "N")
        .replace(/\u00a0/g, ""),
      "koi8-r",
    );
    const res = await upload(type, fields, koi8);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: CSV_ENCODING_MESSAGE });
  });
});
