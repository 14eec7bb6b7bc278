// D57's file path on the in-memory repositories: a dispatch export (cp1251, «;», «ДД.ММ.ГГГГ ЧЧ:ММ:СС» on
// the company's clock; a column per sensor or a row per reading) stored as one batch and read by the one
// consumer in parts cut at UTC days: bad lines refused with their numbers in Russian while the good ones
// are kept (letters, an unknown sensor, a time ahead of the clock, a line in another encoding), a 0-byte
// file and an unreadable header refused at once naming line 1 with nothing stored, the same file twice
// stored once, and a consumer stopped half-way through a file run again counting every reading once.
// Over HTTP with the direct upload: tests/integration/readings-file.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { encodeLegacy } from "../../../../../tests/support/legacy-encoding";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { sensorCreateSchema } from "../../../contract/schemas/sensor";
import { parseWith } from "../../../http/validate";
import { createPoint } from "../../company/emission-points";
import type { Actor, Deps } from "../../context";
import { newId } from "../../ids";
import { applyBatch, readingsBetween, utcDay } from "../minutes/consumer";
import {
  BLOCK_BYTES,
  DispatchReader,
  EMPTY_FILE_MESSAGE,
  LINE_TOO_LONG,
  UNTERMINATED_QUOTE,
  firstUndecodableLine,
  readDispatchBytes,
} from "./dispatch-file";
import { LIMITS } from "../../../contract/schemas/limits";
import { importReadingsFile, PART_READINGS, readingsFileKey } from "./files";
import { createSensor } from "./register";

/** The test's clock. */
const NOW = Date.parse("2026-11-16T03:00:00Z");
let d: MemoryDomain;
let staff: Actor;
let facility: string;
const sensors: Record<string, string> = {};
const CODES = ["М-1", "М-2", "М-3", "М-4", "М-5", "М-6", "М-7", "М-8", "М-9", "Q-1"];

/** 01.03.2026 10:00 in Kemerovo (UTC+7): a dispatch file's wall clock. */
const wall = (minutes: number) => {
  const t = new Date(Date.UTC(2026, 2, 1, 10, 0) + minutes * 60_000);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${p(t.getUTCDate())}.${p(t.getUTCMonth() + 1)}.${t.getUTCFullYear()} ${p(t.getUTCHours())}:${p(t.getUTCMinutes())}:00`;
};
const instant = (minutes: number) => Date.UTC(2026, 2, 1, 3, 0) + minutes * 60_000;

/** The file uploaded (as the PUT leaves it) and named: its batch, queued. */
async function upload(bytes: Uint8Array) {
  const key = readingsFileKey(staff.company, facility, newId());
  await d.deps.blobs.put(key, bytes, "text/csv");
  return importReadingsFile(d.deps, staff, { facility, file_upload: key, name: "АГК.csv" });
}

async function applied(bytes: Uint8Array, deps: Pick<Deps, "repos" | "blobs" | "clock" | "runtime"> = d.deps) {
  const batch = await upload(bytes);
  expect(batch).toMatchObject({ state: "queued", accepted: 0, file_name: "АГК.csv" });
  return (await applyBatch(deps, staff.company, batch.batch))!;
}

beforeAll(async () => {
  d = await memoryDomain(clockAt(NOW));
  staff = await d.actor("ООО «Выгрузка АГК»");
  facility = (await d.facility(staff, { name: "Шахта «Файл»", kind: "underground_mine" })).id;
  const point = (
    await d.write(() => createPoint(d.deps, staff, facility, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })))
  ).id;
  for (const code of CODES) {
    const body = { code, kind: code.startsWith("Q") ? "flow" : "methane", point };
    sensors[code] = (await d.write(() => createSensor(d.deps, staff, facility, parseWith(sensorCreateSchema, body)))).id;
  }
});

describe("a wide export in Windows-1251", () => {
  // An hour ahead of the test's clock, written at UTC+7.
  const future = new Date(NOW + 7 * 3_600_000 + 60 * 60_000);
  const p = (n: number) => String(n).padStart(2, "0");
  const futureWall = `${p(future.getUTCDate())}.${p(future.getUTCMonth() + 1)}.${future.getUTCFullYear()} ${p(future.getUTCHours())}:${p(future.getUTCMinutes())}:00`;
  const text = [
    "Время;М-1;Q-1;Х-9",
    `${wall(0)};0,44;12 000;1`,
    `${wall(1)};обрыв;12 100;1`,
    `01.03.2026 25:00:00;0,45;12 050;1`,
    `${futureWall};0,45;12 050;1`,
    `${wall(2)};0,46;;1`,
  ].join("\r\n");

  it("keeps the good lines and refuses each bad one by its number, in Russian", async () => {
    const batch = await applied(encodeLegacy(text, "windows-1251"));
    expect(batch).toMatchObject({ state: "done", lines: 5, accepted: 4, duplicate: 0, corrected: 0, refused_count: 4 });
    // line 3's methane refused, its flow kept, and the unknown column's values: values, not lines.
    expect(batch).toMatchObject({ refused_values: 2, refused_lines: 2, incomplete_lines: 0 });
    expect(batch.refused).toEqual([
      { line: 1, reason: "столбец «Х-9»: датчик не найден в реестре датчиков площадки, его значения не прочитаны" },
      { line: 3, reason: "«М-1»: значение «обрыв» не число" },
      { line: 4, reason: "время «01.03.2026 25:00:00» не существует" },
      { line: 5, reason: `время ${futureWall} позже текущего более чем на 5 минут` },
    ]);
    const methane = await readingsBetween(d.deps, staff.company, sensors["М-1"], instant(0), instant(60));
    expect([...methane.times]).toEqual([instant(0), instant(2)]);
    expect([...methane.values]).toEqual([0.44, 0.46]);
    const flow = await readingsBetween(d.deps, staff.company, sensors["Q-1"], instant(0), instant(60));
    expect([...flow.values]).toEqual([12000, 12100]);
  });

  it("counts a line cut short apart, naming the sensors it has no cell for, and reads the cells it has", async () => {
    const cut = ["Время;Q-1;М-2;М-3", `${wall(130)};12 000;0,41;0,42`, `${wall(131)};12 000`, `${wall(132)};12 000;0,43;0,44`].join("\r\n");
    const batch = await applied(new TextEncoder().encode(cut));
    expect(batch).toMatchObject({ lines: 3, accepted: 7, refused_values: 0, refused_lines: 0, incomplete_lines: 1 });
    expect(batch.refused).toEqual([
      { line: 3, reason: "строка неполная: 2 из 4 столбцов заголовка — нет значений «М-2», «М-3»; остальные значения строки прочитаны" },
    ]);
    const flow = await readingsBetween(d.deps, staff.company, sensors["Q-1"], instant(130), instant(133));
    expect([...flow.times]).toEqual([instant(130), instant(131), instant(132)]);
  });

  it("stores once when the same file comes again: every reading a duplicate, the days unchanged", async () => {
    const before = await d.deps.repos.monitoring.getDay(staff.company, sensors["М-1"], "2026-03-01");
    const batch = await applied(encodeLegacy(text, "windows-1251"));
    expect(batch).toMatchObject({ accepted: 0, duplicate: 4, corrected: 0 });
    const after = await d.deps.repos.monitoring.getDay(staff.company, sensors["М-1"], "2026-03-01");
    expect([...after!.offsets]).toEqual([...before!.offsets]);
    expect([...after!.values]).toEqual([...before!.values]);
  });

  it("answers the same batch when the same upload is named again", async () => {
    const key = readingsFileKey(staff.company, facility, newId());
    await d.deps.blobs.put(key, encodeLegacy(text, "windows-1251"), "text/csv");
    const first = await importReadingsFile(d.deps, staff, { facility, file_upload: key });
    const again = await importReadingsFile(d.deps, staff, { facility, file_upload: key });
    expect(again.batch).toBe(first.batch);
  });
});

// the dialog and docs said «ДД.ММ.ГГГГ ЧЧ:ММ:СС» alone, though «ЧЧ:ММ» and a decimal
// dot are read too; the refusal of a time says every form read.
describe("the forms a dispatch file is read in", () => {
  it("reads a time without seconds and a value with a dot, and a time in no form read is refused naming them all", async () => {
    const text = ["Датчик;Время;Значение", "М-8;01.03.2026 10:05;7.21", "М-8;01.03.2026 10:06:00;0,45", "М-8;1.3.2026 10:07;0,46"].join(
      "\n",
    );
    const batch = await applied(new TextEncoder().encode(text));
    expect(batch).toMatchObject({ accepted: 2, refused_count: 1 });
    expect(batch.refused).toEqual([
      {
        line: 4,
        reason:
          "время «1.3.2026 10:07» не в формате: «ДД.ММ.ГГГГ ЧЧ:ММ:СС» или «ДД.ММ.ГГГГ ЧЧ:ММ» (год можно двумя цифрами, «ДД.ММ.ГГ»; дата и время могут быть в отдельных столбцах «Дата» и «Время») по часам компании, или ISO 8601 с часовым поясом",
      },
    ]);
    const read = await readingsBetween(d.deps, staff.company, sensors["М-8"], instant(5), instant(7));
    expect([...read.values]).toEqual([7.21, 0.45]);
  });

  // a dispatch system's «26.11.26 00:00» and its date in a column of its own were
  // refused line by line (every line: nothing read).
  it("reads a two-digit year as this century's, and a date in a column of its own beside the time", async () => {
    const short = ["Время;М-7", "01.03.26 10:20;0,31", "01.03.26 10:21:00;0,32", "31.02.26 10:22;0,33"].join("\r\n");
    const byYear = await applied(encodeLegacy(short, "windows-1251"));
    expect(byYear).toMatchObject({ accepted: 2, refused_count: 1, refused: [{ line: 4, reason: "время «31.02.26 10:22» не существует" }] });
    const wide = ["Дата;Время;М-6;Q-1", "01.03.2026;10:30;0,41;12 000", "01.03.26;10:31:00;0,42;12 001"].join("\r\n");
    expect(await applied(encodeLegacy(wide, "windows-1251"))).toMatchObject({ accepted: 4, refused_count: 0 });
    const rows = ["Датчик;Дата;Время;Значение", "М-9;01.03.2026;10:40;0,51", "М-9;01.03.2026;;0,52"].join("\n");
    const byRow = await applied(new TextEncoder().encode(rows));
    expect(byRow).toMatchObject({ accepted: 1, refused_count: 1 });
    expect(byRow.refused[0].reason).toMatch(/^время «01\.03\.2026» не в формате/);
    expect([...(await readingsBetween(d.deps, staff.company, sensors["М-7"], instant(20), instant(23))).values]).toEqual([0.31, 0.32]);
    const m6 = await readingsBetween(d.deps, staff.company, sensors["М-6"], instant(30), instant(32));
    expect([...m6.times]).toEqual([instant(30), instant(31)]);
    expect([...m6.values]).toEqual([0.41, 0.42]);
    expect([...(await readingsBetween(d.deps, staff.company, sensors["М-9"], instant(40), instant(41))).values]).toEqual([0.51]);
  });
});

describe("one row per reading", () => {
  it("refuses an unknown sensor and a line whose bytes are in no encoding it reads, keeping the rest", async () => {
    const head = new TextEncoder().encode(`Датчик;Время;Значение\nМ-2;${wall(0)};0,5\n`);
    const bad = new Uint8Array([...new TextEncoder().encode("М-2;"), 0x98, 0x98, ...new TextEncoder().encode(`;${wall(1)};0,6\n`)]);
    const tail = new TextEncoder().encode(`С-404;${wall(2)};0,7\nМ-2;${wall(3)};0,8\n`);
    const batch = await applied(new Uint8Array([...head, ...bad, ...tail]));
    expect(batch).toMatchObject({ lines: 4, accepted: 2, refused_count: 2 });
    expect(batch.refused).toEqual([
      { line: 3, reason: "байты строки не в кодировке UTF-8 и не в Windows-1251: строка не прочитана" },
      { line: 4, reason: "датчик «С-404» не найден в реестре датчиков площадки" },
    ]);
    const m2 = await readingsBetween(d.deps, staff.company, sensors["М-2"], instant(0), instant(60));
    expect([...m2.values]).toEqual([0.5, 0.8]);
  });
});

describe("lines it cannot or must not read (the security review's R11)", () => {
  it("refuses a line longer than the bound by its number without holding it, and reads the lines after it", async () => {
    // Over the bound by several blocks, in pieces of every size the consumer may be handed: smaller than a
    // block and on no block's edge (10 007 bytes: the line held across 180 of them; pieces of 1 000
    // made it 1 800 pushes, 0,4 s more of the tier, the same held bound), a block, the whole file.
    const long = `${wall(1)};${"1".repeat(LIMITS.monitoring.lineBytes + 3 * BLOCK_BYTES)}`;
    const text = `Время;М-3\n${wall(0)};0,41\n${long}\n${wall(2)};0,43\n`;
    const bytes = new TextEncoder().encode(text);
    for (const piece of [10_007, BLOCK_BYTES, bytes.length]) {
      const rows: string[] = [];
      const refused: string[] = [];
      const reader = new DispatchReader(
        { zone: "Asia/Novokuznetsk" },
        {
          reading: (line, _code, _t, v) => void rows.push(`${line}:${v}`),
          refuse: (line, reason) => void refused.push(`${line}:${reason}`),
        },
      );
      let held = 0;
      for (let i = 0; i < bytes.length; i += piece) {
        reader.push(bytes.subarray(i, i + piece));
        held = Math.max(held, (reader as unknown as { pendingBytes: number }).pendingBytes);
      }
      reader.end();
      expect(rows, `pieces of ${piece}`).toEqual(["2:0.41", "4:0.43"]);
      expect(refused).toEqual([`3:${LINE_TOO_LONG}`]);
      expect(reader.lines).toBe(4);
      expect(held).toBeLessThanOrEqual(LIMITS.monitoring.lineBytes + BLOCK_BYTES);
    }
    expect(LINE_TOO_LONG).toBe("строка длиннее 1 МБ: не прочитана");
    const batch = await applied(bytes);
    expect(batch).toMatchObject({ state: "done", lines: 3, accepted: 2, refused: [{ line: 3, reason: LINE_TOO_LONG }] });
  });

  it("refuses a header longer than the bound as the file, naming line 1", () => {
    const bytes = new TextEncoder().encode(`Время;${"М".repeat(LIMITS.monitoring.lineBytes)}\n${wall(0)};0,4\n`);
    expect(() => readDispatchBytes(bytes, { zone: "UTC" }, { reading: () => undefined, refuse: () => {} })).toThrow(
      `Строка 1 (заголовок): ${LINE_TOO_LONG} — это не заголовок выгрузки АГК`,
    );
  });

  it("refuses a line whose quote is never closed by its number, and reads every line after it", async () => {
    // Its block was dropped from that line on (lines 4 and 5 neither read nor refused).
    const text = `Датчик;Время;Значение\nМ-4;${wall(0)};0,5\nМ-4;${wall(1)};"0,6\nМ-4;${wall(2)};0,7\nМ-4;${wall(3)};0,8\n`;
    const batch = await applied(new TextEncoder().encode(text));
    expect(batch).toMatchObject({ lines: 4, accepted: 3, refused: [{ line: 3, reason: UNTERMINATED_QUOTE }] });
    const m4 = await readingsBetween(d.deps, staff.company, sensors["М-4"], instant(0), instant(60));
    expect([...m4.values]).toEqual([0.5, 0.7, 0.8]);
  });

  it("refuses a reading older than the horizon and a value no meter sends, keeping a value past the meter's span", async () => {
    const text = `Датчик;Время;Значение\nМ-5;01.01.1970 07:00:00;0,5\nМ-5;${wall(0)};1 000 000\nМ-5;${wall(1)};4,5\nМ-5;${wall(2)};-0,1\n`;
    const batch = await applied(new TextEncoder().encode(text));
    expect(batch).toMatchObject({ lines: 4, accepted: 2 });
    expect(batch.refused.map((r) => r.line)).toEqual([2, 3]);
    expect(batch.refused[0].reason).toMatch(
      /^время 01\.01\.1970 07:00:00 раньше \d\d\.\d\d\.\d{4}: показания старше 24 мес\. не принимаются$/,
    );
    expect(batch.refused[1].reason).toBe("значение 1000000 невозможно для датчика «М-5» (% об.): допустимо от -100 до 200");
    const m5 = await readingsBetween(d.deps, staff.company, sensors["М-5"], instant(0), instant(60));
    expect([...m5.values]).toEqual([4.5, -0.1]);
  });
});

describe("a file refused whole", () => {
  const queuedCount = async () => (await d.deps.repos.monitoring.queued(1000)).length;

  it("refuses a 0-byte file naming line 1, storing nothing", async () => {
    const before = await queuedCount();
    await expect(upload(new Uint8Array(0))).rejects.toMatchObject({ kind: "invalid", detail: EMPTY_FILE_MESSAGE });
    expect(EMPTY_FILE_MESSAGE).toContain("Строка 1: файл пустой (0 байт)");
    expect(await queuedCount()).toBe(before);
  });

  it("refuses a file in UTF-16 and a header in no encoding it reads, naming line 1", async () => {
    const utf16 = new Uint8Array([0xff, 0xfe, ...new TextEncoder().encode("В\0р\0")]);
    await expect(upload(utf16)).rejects.toMatchObject({
      kind: "invalid",
      detail: expect.stringMatching(/^Строка 1 \(заголовок\): не удалось прочитать/),
    });
    const header = new Uint8Array([...new TextEncoder().encode("Время;М-1"), 0x98, 0x0a, ...new TextEncoder().encode(`${wall(0)};0,4\n`)]);
    await expect(upload(header)).rejects.toMatchObject({ detail: expect.stringContaining("Строка 1 (заголовок)") });
    expect(firstUndecodableLine(header)).toBe(1);
  });
});

describe("a file of many parts", () => {
  // Three days of ten sensors a minute: 43 200 readings, cut into a part per UTC day.
  const DAYS = 3;
  const start = Date.UTC(2026, 3, 1, 0, 0);
  const lines = [`Время;${CODES.join(";")}`];
  for (let m = 0; m < DAYS * 1440; m++) {
    const local = new Date(start + m * 60_000 + 7 * 3_600_000);
    const p = (n: number) => String(n).padStart(2, "0");
    const time = `${p(local.getUTCDate())}.${p(local.getUTCMonth() + 1)}.${local.getUTCFullYear()} ${p(local.getUTCHours())}:${p(local.getUTCMinutes())}:00`;
    lines.push([time, ...CODES.map((_, s) => `0,${String(30 + ((m + s) % 60)).padStart(2, "0")}`)].join(";"));
  }
  const bytes = new TextEncoder().encode(lines.join("\n"));

  it("is read in pieces whatever their size: the same lines from blocks and from pieces of 1 KB", () => {
    const read = (piece: number) => {
      const rows: string[] = [];
      const sink = {
        reading: (line: number, code: string, t: number, v: number) => void rows.push(`${line}|${code}|${t}|${v}`),
        refuse: () => {},
      };
      const reader = new DispatchReader({ zone: "Asia/Novokuznetsk" }, sink);
      for (let i = 0; i < bytes.length; i += piece) reader.push(bytes.subarray(i, i + piece));
      reader.end();
      return rows;
    };
    const whole: string[] = [];
    readDispatchBytes(
      bytes,
      { zone: "Asia/Novokuznetsk" },
      { reading: (l, c, t, v) => void whole.push(`${l}|${c}|${t}|${v}`), refuse: () => {} },
    );
    expect(whole).toHaveLength(DAYS * 1440 * CODES.length);
    expect(whole[0]).toBe(`2|М-1|${start}|0.3`);
    // The file in one piece is what readDispatchBytes reads: push cuts a piece into blocks as it does.
    expect(read(1000)).toEqual(whole);
    expect(bytes.length).toBeGreaterThan(BLOCK_BYTES);
  });

  it("stopped half-way and run again, counts every reading once and is done only then", async () => {
    const batch = await upload(bytes);
    let writes = 0;
    const failing: Pick<Deps, "repos" | "blobs" | "clock" | "runtime"> = {
      blobs: d.deps.blobs,
      runtime: d.deps.runtime,
      clock: d.deps.clock,
      repos: {
        ...d.deps.repos,
        monitoring: {
          ...d.deps.repos.monitoring,
          putDay: (day, version) => {
            // The second part's fifth sensor-day: a process killed in the middle of the file.
            if (++writes === CODES.length + 5) throw new Error("killed");
            return d.deps.repos.monitoring.putDay(day, version);
          },
        },
      },
    };
    await expect(applyBatch(failing, staff.company, batch.batch)).rejects.toThrow("killed");
    expect(await d.deps.repos.monitoring.getBatch(staff.company, batch.batch)).toMatchObject({ state: "queued", accepted: 0 });
    expect((await d.deps.repos.monitoring.queued(1000)).map((q) => q.batch)).toContain(batch.batch);
    const done = (await applyBatch(d.deps, staff.company, batch.batch))!;
    expect(done).toMatchObject({ state: "done", lines: DAYS * 1440, accepted: DAYS * 1440 * CODES.length, duplicate: 0, refused_count: 0 });
    expect(DAYS * 1440 * CODES.length).toBeGreaterThan(2 * PART_READINGS);
    // Each sensor-day written by one part of the file, once.
    for (let day = 0; day < DAYS; day++) {
      const stored = await d.deps.repos.monitoring.getDay(staff.company, sensors["М-5"], utcDay(start + day * 86_400_000));
      expect(stored!.values).toHaveLength(1440);
      expect(Object.keys(stored!.applied)).toEqual([`${batch.batch}#${day}`]);
    }
    expect((await d.deps.repos.monitoring.queued(1000)).map((q) => q.batch)).not.toContain(batch.batch);
  });
});
