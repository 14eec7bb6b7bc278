// Upload previews on the local server as `npm start` runs it (docs/security.md, «Heavy work
// bounded»): one pass lists every refused row of a large file, in a worker thread; every preview
// and every upload takes a heavy-work slot whatever its size; a file the reader refuses answers the
// same 400 on the save path (a worker thread) as its dry run; an upload past its time budget is
// ended with a message. The timing under load is in upload-preview.deep.test.ts.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateRawSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HEAVY_PER_USER, reserveHeavyWork, waitText } from "@server/domain/heavy-work";
import { spreadsheetThreads } from "@server/local/spreadsheet-threads";
import { LOCAL_TABLE, openMemoryStorage } from "@server/local/storage";
import type { UploadPreviewView } from "@server/contract/schemas/upload-preview";
import { zipOfDeflated } from "../support/zip";
import { forecastCsv, sendForecast, startPreviewServer, type PreviewServer } from "../support/upload-previews";

let s: PreviewServer;

beforeAll(async () => {
  s = await startPreviewServer();
});
afterAll(() => s?.server.close());

const preview = (file: { name: string; bytes: Uint8Array }) => sendForecast(s.server.url, s.staff.token, s.project, file, "?dry_run=1");
const save = (file: { name: string; bytes: Uint8Array }) => sendForecast(s.server.url, s.staff.token, s.project, file);
const detail = async (res: Response) => ((await res.json()) as { detail: string }).detail;
const forecasts = async () => {
  const res = await fetch(`${s.server.url}/api/v1/regres_methane/?project=${s.project.id}`, {
    headers: { Authorization: `Bearer ${s.staff.token}` },
  });
  return ((await res.json()) as { count: number }).count;
};

describe("a preview in one pass, in a worker thread", () => {
  it("lists every one of 200 refused rows of a 2 MB forecast file", async () => {
    const bytes = forecastCsv(50_000, 250);
    expect(bytes.byteLength).toBeGreaterThan(1.9 * 1024 * 1024);
    const started = performance.now();
    const res = await preview({ name: "longwall.csv", bytes });
    const seconds = (performance.now() - started) / 1000;
    expect(res.status, await res.clone().text()).toBe(200);
    const answer = (await res.json()) as UploadPreviewView;
    console.log(`preview of ${(bytes.byteLength / 1024 / 1024).toFixed(1)} MB, 200 refused rows: ${seconds.toFixed(2)} s`);
    expect(answer.count).toBe(50_000);
    expect(answer.errors).toHaveLength(200);
    // Row 1 is the header: the 250th data row is the file's row 251.
    expect(answer.errors.map((e) => e.row)).toEqual(Array.from({ length: 200 }, (_, i) => 251 + 250 * i));
    expect(answer.errors.every((e) => e.column === "x7" && e.message.includes("концентрация не больше 100 %"))).toBe(true);
  }, 60_000);
});

describe("every preview and every upload takes a heavy-work slot, whatever its size", () => {
  it("answers 429 to a small preview and a small upload while the user's slots are taken", async () => {
    const small = { name: "small.csv", bytes: forecastCsv(3) };
    const held = await Promise.all(Array.from({ length: HEAVY_PER_USER }, () => reserveHeavyWork(s.server.deps, s.staff)));
    try {
      for (const res of [await preview(small), await save(small)]) {
        expect(res.status).toBe(429);
        // Held by no request of the server: until the budget's window lets one go,
        // past half of the next window, at least 5 minutes.
        const wait = Number(res.headers.get("retry-after"));
        expect(wait).toBeGreaterThanOrEqual(300);
        const refusal = await detail(res);
        expect(refusal).toContain("Слишком много тяжелых операций");
        expect(refusal).toContain(`Повторите через ${waitText(wait)}`);
      }
    } finally {
      await Promise.all(held.map((release) => release()));
    }
    expect((await preview(small)).status).toBe(200);
  });

  it("bounds 6 parallel previews of 130 KB by the user's slots", async () => {
    const bytes = forecastCsv(3_300, 50);
    expect(bytes.byteLength).toBeGreaterThan(120 * 1024);
    expect(bytes.byteLength).toBeLessThan(256 * 1024);
    const answers = await Promise.all(Array.from({ length: 6 }, () => preview({ name: "longwall.csv", bytes })));
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.every((st) => st === 200 || st === 429),
      String(statuses),
    ).toBe(true);
    expect(statuses.filter((st) => st === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((st) => st === 429).length).toBeGreaterThanOrEqual(6 - 2 * HEAVY_PER_USER);
    const taken = answers.find((a) => a.status === 200)!;
    expect(((await taken.json()) as UploadPreviewView).errors).toHaveLength(66);
    await Promise.all(answers.filter((a) => !a.bodyUsed).map((a) => a.arrayBuffer()));
  }, 60_000);
});

/** Files over 256 KB that the reader refuses (read in a worker thread when saved). */
const REFUSED: Array<[string, () => { name: string; bytes: Uint8Array }, string]> = [
  [
    "100 001 rows",
    () => ({
      name: "rows.csv",
      bytes: new TextEncoder().encode(`x1,x2,x7,x8,x12,x13,x15\n${"1,2,3,4,5,6,7\n".repeat(100_001)}`),
    }),
    "слишком много строк, допускается не более 100000",
  ],
  [
    "a missing column",
    () => ({ name: "missing.csv", bytes: new TextEncoder().encode(new TextDecoder().decode(forecastCsv(10_000)).replace("x1,", "y1,")) }),
    "нет столбца «Расход воздуха в исходящей струе лавы (телеметрия), м³/мин»",
  ],
  [
    "a zip bomb",
    () => {
      const padding = new Uint8Array(deflateRawSync(crypto.getRandomValues(new Uint8Array(60_000))));
      const bomb = new Uint8Array(deflateRawSync(Buffer.alloc(50 * 1024 * 1024)));
      const pads = Array.from({ length: 5 }, (_, i) => ({ name: `xl/media/image${i}.bin`, data: padding, declared: 60_000 }));
      return {
        name: "bomb.xlsx",
        bytes: zipOfDeflated([...pads, { name: "xl/sharedStrings.xml", data: bomb, declared: 50 * 1024 * 1024 }]),
      };
    },
    "слишком велик",
  ],
];

describe("a file the reader refuses is a 400 on every path", () => {
  it.each(REFUSED)(
    "answers a large file of %s with the dry run's 400 when it is saved",
    async (_, file, message) => {
      const bytes = file();
      expect(bytes.bytes.byteLength).toBeGreaterThan(256 * 1024);
      const before = await forecasts();
      const dry = await preview(bytes);
      expect(dry.status).toBe(400);
      const expected = await detail(dry);
      expect(expected).toContain(message);
      const saved = await save(bytes);
      expect(saved.status).toBe(400);
      expect(await detail(saved)).toBe(expected);
      expect(await forecasts()).toBe(before);
    },
    30_000,
  );
});

describe("the time budget of an upload's work", () => {
  it("ends an upload that runs past it with a message, and the next one is served", async () => {
    const storage = await openMemoryStorage();
    const threads = spreadsheetThreads({
      endpoint: storage.endpoint!,
      tableName: LOCAL_TABLE,
      blobsDir: mkdtempSync(join(tmpdir(), "blobs-")),
      uploadBudgetMs: 300,
    });
    const bounds = { start: "2025-01-01", end: "2025-12-31" };
    try {
      // Every row refused (a concentration above 100 %): read by the general reader, each refusal
      // listed — the plain file's one-pass read ends within the budget.
      const long = threads.previewUpload("regres_methane", { name: "longwall.csv", bytes: forecastCsv(100_000, 1) }, {}, bounds);
      await expect(long).rejects.toMatchObject({
        kind: "too_large",
        detail: expect.stringContaining("дольше 0,3 с, обработка остановлена"),
      });
      const short = await threads.previewUpload("regres_methane", { name: "longwall.csv", bytes: forecastCsv(10) }, {}, bounds);
      expect(short.count).toBe(10);
    } finally {
      await threads.close();
      await storage.close();
    }
  }, 60_000);
});
