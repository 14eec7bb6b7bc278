// What a company's user sees of a data folder, read over the API of a server started on it: every
// year's figures (totals, lines, facilities, threshold, review status), the approved versions with
// their SHA-256, each version's passport (the xlsx's cell values) and the files of its verification
// pack by SHA-256 (manifest.json) and its version.json. tests/fixtures/data-folder-v1/make.ts records them from a folder
// the release an earlier round's start wrote; tests/integration/data-format.test.ts reads them again from
// that folder upgraded, and they must be equal. Plain HTTP only: the release that made the fixture
// runs this file too.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";

/** A clock `at` the given instant when made, running on from there: the passports print its day. */
export const offsetClock = (at: string) => {
  const offset = Date.parse(at) - Date.now();
  return { now: () => new Date(Date.now() + offset) };
};

/** The fixture's day: 16.03.2026 10:00 in Novokuznetsk (UTC+7); the demo year is 2025. */
export const FIXTURE_NOW = "2026-03-16T03:00:00Z";

async function get(url: string, token: string, path: string): Promise<Response> {
  const res = await fetch(`${url}/api${path}`, { headers: { Authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return res;
}

/** The cell values of every sheet of an xlsx, row by row. */
async function cellValues(bytes: ArrayBuffer): Promise<Record<string, string[][]>> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes);
  const sheets: Record<string, string[][]> = {};
  book.eachSheet((sheet) => {
    const rows: string[][] = [];
    sheet.eachRow({ includeEmpty: false }, (row) => {
      const values: string[] = [];
      row.eachCell({ includeEmpty: false }, (cell) => {
        values.push(cell.text);
      });
      rows.push(values);
    });
    sheets[sheet.name] = rows;
  });
  return sheets;
}

/** The manifest.json and version.json of a zip (Python's zipfile, as the pack's own verify.py reads them). */
function packFiles(bytes: ArrayBuffer): { manifest: unknown; version: unknown } {
  const dir = mkdtempSync(join(tmpdir(), "pack-"));
  try {
    const file = join(dir, "pack.zip");
    writeFileSync(file, new Uint8Array(bytes));
    const read = (name: string): unknown => {
      const script = "import sys,zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())";
      const out = spawnSync("python3", ["-c", script, file, name], { encoding: "utf8" });
      if (out.status !== 0) throw new Error(out.stderr);
      return JSON.parse(out.stdout);
    };
    return { manifest: read("manifest.json"), version: read("version.json") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface FolderFigures {
  years: unknown;
  inventory: Record<string, unknown>;
  versions: Record<string, unknown>;
  passports: Record<string, unknown>;
  packs: Record<string, unknown>;
}

/** The figures a user signed in with `token` sees on the server at `url`. */
export async function folderFigures(url: string, token: string): Promise<FolderFigures> {
  const years = (await (await get(url, token, "/v1/inventory/years/")).json()) as { year: number }[];
  const figures: FolderFigures = { years, inventory: {}, versions: {}, passports: {}, packs: {} };
  for (const { year } of years) {
    const inventory = (await (await get(url, token, `/v1/inventory/?year=${year}`)).json()) as Record<string, unknown>;
    const { gwp, categories, facilities, total_t_co2e, threshold } = inventory;
    figures.inventory[year] = {
      gwp,
      categories,
      facilities,
      total_t_co2e,
      threshold,
      status: (inventory.review as { status: string }).status,
    };
    const versions = (await (await get(url, token, `/v1/inventory/${year}/versions/`)).json()) as { version: number }[];
    figures.versions[year] = versions;
    for (const { version } of versions) {
      const passport = await get(url, token, `/v1/inventory/${year}/report/?format=xlsx&version=${version}`);
      figures.passports[`${year}/${version}`] = await cellValues(await passport.arrayBuffer());
      const pack = await get(url, token, `/v1/inventory/${year}/versions/${version}/pack/`);
      figures.packs[`${year}/${version}`] = packFiles(await pack.arrayBuffer());
    }
  }
  return figures;
}
