// Issue 26 (hostile): characters XML 1.0 cannot carry (C0 controls but tab, LF and CR; U+FFFE,
// U+FFFF; lone surrogates) typed into a project's and a calculation's name, a justification, a
// facility and the company's details reach the project's xlsx exports and the report passport
// without making their XML ill-formed. Every part of each zip is parsed back with saxes (a strict
// XML 1.0 parser), and the visible text keeps the rest of the name.
import ExcelJS from "exceljs";
import JSZip from "jszip";
import { SaxesParser } from "saxes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { xmlText } from "@server/export/xlsx-writer";
import { createHarness, type Harness } from "../support/harness";

// Two lone surrogates: a low one first, a high one last (nothing after it to pair with).
const BAD = "\u0000\u0001\u0008\u000B\u000C\u000E\u001F\uFFFE\uFFFF\uDFFF\uD800";
const named = (text: string) => `${text}${BAD}`;

let h: Harness;
let token: string;
let projectId: string;

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

beforeAll(async () => {
  h = await createHarness();
  const user = await h.signedInUser(named("ООО Уголь"));
  token = user.token;
  const company = (await h.deps.repos.companies.get(user.companyId))!;
  await h.deps.repos.companies.replace({ ...company, postal_address: named("г. Кемерово") }, company.version ?? 0);
  const facility = await json<{ id: string }>(
    await h.request("/api/v1/facilities/", { method: "POST", token, json: { name: named("Шахта Южная"), kind: "underground_mine" } }),
    201,
  );
  const project = await json<{ id: string }>(
    await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token,
      json: { name: named("Проект"), start_date: "2025-01-01", end_date: "2025-12-31", facility: facility.id },
    }),
    201,
  );
  projectId = project.id;
  await json(
    await h.request("/api/v1/underground_emission_ch4/", {
      method: "POST",
      token,
      json: {
        name: named("Добыча"),
        project: projectId,
        volume: 1000,
        ef: 14.3,
        dictionary_items: { get_underground_emission_ch4: null },
        justifications: { ef: named("Протокол замеров") },
      },
    }),
    201,
  );
}, 60_000);
afterAll(() => h.close());

/** Parses every XML part of the zip strictly; returns the parts' texts. */
async function wellFormed(bytes: Uint8Array): Promise<string> {
  const zip = await JSZip.loadAsync(bytes);
  let all = "";
  for (const name of Object.keys(zip.files).filter((n) => /\.(xml|rels)$/.test(n))) {
    const xml = await zip.files[name].async("string");
    const parser = new SaxesParser({ xmlns: true });
    const errors: string[] = [];
    parser.on("error", (error) => errors.push(error.message));
    parser.write(xml).close();
    expect(errors, name).toEqual([]);
    all += xml;
  }
  return all;
}

async function download(path: string): Promise<Uint8Array> {
  const res = await h.request(path, { token });
  expect(res.status, res.status === 200 ? "" : await res.clone().text()).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

describe("text that XML 1.0 cannot carry (issue 26)", () => {
  it("removes exactly the characters XML 1.0 forbids, keeping tab, LF, CR and paired surrogates", () => {
    expect(xmlText(`a${BAD}b`)).toBe("ab");
    expect(xmlText("a\tb\nc\rd 😀 ё")).toBe("a\tb\nc\rd 😀 ё");
  });

  for (const detail of [false, true]) {
    it(`the project's xlsx export${detail ? " (detailed)" : ""} stays well-formed and keeps the names`, async () => {
      const bytes = await download(`/api/v1/projects/${projectId}/export_to_xlsx/${detail ? "?detail=true" : ""}`);
      await wellFormed(bytes);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
      const texts = workbook.worksheets.flatMap((ws) => ws.getSheetValues().flatMap((row) => (Array.isArray(row) ? row : [])));
      expect(texts).toContain("Добыча");
      expect(texts.some((t) => typeof t === "string" && t.includes("Проект") && !/[\uFFFF\u0001]/.test(t))).toBe(true);
    });
  }

  it("the report passport's xlsx stays well-formed and keeps the details", async () => {
    const bytes = await download("/api/v1/inventory/2025/report/?format=xlsx");
    const xml = await wellFormed(bytes);
    expect(xml).toContain("г. Кемерово");
    expect(xml).toContain("Шахта Южная");
    expect(xml).toContain("Протокол замеров");
  });
});
