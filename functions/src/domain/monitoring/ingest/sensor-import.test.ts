// D56's sensor list imported into the register on the in-memory repositories: the template read back as
// it is downloaded (CSV, Russian headers, decimal commas) makes its six sensors; a list with bad rows is
// previewed with every bad row named by its number and column and saved not at all; a code twice in the
// list or already in service, a point the facility has not, a kind there is none of are refused in
// Russian; an import whose write fails midway leaves the register as it was. Over HTTP (the template's
// .xlsx, the multipart form, another company's 404): tests/integration/sensors.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../../tests/support/memory-domain";
import { pointCreateSchema } from "../../../contract/schemas/facility";
import { SENSOR_LIST_TEMPLATE, templateCsv } from "../../../contract/templates";
import { parseWith } from "../../../http/validate";
import { createPoint } from "../../company/emission-points";
import type { Actor } from "../../context";
import { listSensors } from "./register";
import { importSensorList, previewSensorList } from "./sensor-import";

let d: MemoryDomain;
let staff: Actor;
let other: Actor;
let facility: string;
let shaft: string;

const csv = (text: string, name = "Датчики.csv") => ({ name, bytes: new TextEncoder().encode(text) });
const HEADER =
  "Код датчика;Вид датчика;Источник выбросов;Роль;Предупредительный уровень W, % об. (CO — ppm);Аварийный уровень A, % об. (CO — ppm);Площадь сечения, м²;В эксплуатации с";

beforeAll(async () => {
  d = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
  staff = await d.actor("ООО «Список датчиков»");
  other = await d.actor("ООО «Чужой список»");
  facility = (await d.facility(staff, { name: "Шахта «Северная»", kind: "underground_mine" })).id;
  const point = (body: Record<string, unknown>) => d.write(() => createPoint(d.deps, staff, facility, parseWith(pointCreateSchema, body)));
  shaft = (await point({ name: "Вентиляционный ствол № 1", kind: "ventilation_shaft" })).id;
  await point({ name: "Дегазационная установка", kind: "drainage_station" });
});

describe("the mine's sensor list imported into the register (D56)", () => {
  it("previews a list with bad rows naming each by its row and column, and stores nothing", async () => {
    const list = csv(
      [
        HEADER,
        "М-1;Метан;Вентиляционный ствол № 1;отключающий;1;1,5;;01.02.2026",
        "М-2;Метан;Ствол № 9;;;;;",
        "М-3;Гигрометр;Вентиляционный ствол № 1;;;;;",
        "АН-1;Скорость воздуха;Вентиляционный ствол № 1;;;;;",
        "М-4;Метан;Вентиляционный ствол № 1;;1,5;1;;",
        "м-1;Метан;Вентиляционный ствол № 1;;;;;",
        "М-5;Метан;Вентиляционный ствол № 1;;;;;31.02.2026",
      ].join("\n"),
    );
    const preview = await previewSensorList(d.deps, staff, facility, list);
    expect(preview.count).toBe(7);
    expect(preview.errors.map((e) => [e.row, e.column])).toEqual([
      [3, "Источник выбросов"],
      [4, "Вид датчика"],
      [5, "Площадь сечения, м²"],
      [6, "Аварийный уровень A, % об. (CO — ppm)"],
      [7, "Код датчика"],
      [8, "В эксплуатации с"],
    ]);
    const messages = preview.errors.map((e) => e.message);
    expect(messages[0]).toBe("источника «Ствол № 9» нет у площадки: «Вентиляционный ствол № 1», «Дегазационная установка»");
    expect(messages[1]).toMatch(/^вид «Гигрометр» не найден: Метан \(0–4 % об\.\), /);
    expect(messages[2]).toBe("для анемометра укажите площадь сечения выработки, м²");
    expect(messages[3]).toBe("аварийный уровень ниже предупредительного");
    expect(messages[4]).toBe("код «м-1» уже есть в строке 2");
    expect(messages[5]).toBe("ожидается дата ДД.ММ.ГГГГ, найдено «31.02.2026»");
    // The first row as read, its date as typed.
    expect(preview.rows[0].values).toMatchObject({ code: "М-1", warning: 1, alarm: 1.5, in_service_from: "01.02.2026" });
    expect(await listSensors(d.deps, staff, facility)).toEqual([]);
    // The save refuses the same list whole, naming its first bad row.
    await expect(d.write(() => importSensorList(d.deps, staff, facility, list))).rejects.toThrow(
      "Лист «CSV», строка 3, столбец «Источник выбросов»: источника «Ствол № 9» нет у площадки",
    );
    expect(await listSensors(d.deps, staff, facility)).toEqual([]);
  });

  it("makes the template's seven sensors from the template as downloaded", async () => {
    const template = { name: "Шаблон — Датчики АГК.csv", bytes: templateCsv(SENSOR_LIST_TEMPLATE) };
    const preview = await previewSensorList(d.deps, staff, facility, template);
    expect(preview.errors).toEqual([]);
    const made = await d.write(() => importSensorList(d.deps, staff, facility, template));
    expect(made.map((s) => [s.code, s.kind, s.role, s.conditions])).toEqual([
      ["М-12", "methane", "cut_off", "standard"],
      ["ВС1-CH4", "methane", "signalling", "standard"],
      ["АН-3", "air_velocity", "recording", "standard"],
      ["ДГ-CH4", "methane_high", "recording", "standard"],
      ["ДГ-Q", "flow", "recording", "actual"],
      ["ДГ-P", "pressure", "recording", "standard"],
      ["ДГ-T", "temperature", "recording", "standard"],
    ]);
    // the longwall's meter hangs in its section and measures no point; the shaft's own do.
    expect(made[0]).toMatchObject({
      point: null,
      working: "Лава 24-12",
      section: "Выемочный участок 24-12",
      place: "longwall_return",
      warning: 1,
      alarm: 1.5,
      in_service_from: "2026-01-01",
    });
    expect(made.map((s) => [s.code, s.place, s.point !== null])).toEqual([
      ["М-12", "longwall_return", false],
      ["ВС1-CH4", "shaft", true],
      ["АН-3", "shaft", true],
      ["ДГ-CH4", "drainage_pipeline", true],
      ["ДГ-Q", "drainage_pipeline", true],
      ["ДГ-P", "drainage_pipeline", true],
      ["ДГ-T", "drainage_pipeline", true],
    ]);
    expect(made[1].point).toBe(shaft);
    expect(made[2].area_m2).toBe(24.5);
    expect((await listSensors(d.deps, staff, facility)).length).toBe(7);
    // Again: every code is in service now.
    const again = await previewSensorList(d.deps, staff, facility, template);
    expect(again.errors.map((e) => e.message)).toContain("у площадки уже есть датчик «М-12»");
  });

  it("refuses a place that does not measure the point the row names, and a place there is none of", async () => {
    const list = csv(
      [
        "Код датчика;Вид датчика;Источник выбросов;Участок;Место датчика",
        "П-1;Метан;Вентиляционный ствол № 1;Выемочный участок 3;У забоя",
        "П-2;Метан;;Выемочный участок 3;На крыше",
        "П-3;Метан;;Выемочный участок 3;в 10-20 м от забоя",
      ].join("\n"),
    );
    const preview = await previewSensorList(d.deps, staff, facility, list);
    expect(preview.errors.map((e) => [e.row, e.column])).toEqual([
      [2, "Место датчика"],
      [3, "Место датчика"],
    ]);
    expect(preview.errors[0].message).toBe(
      "датчик места «У забоя (призабойное пространство)» не измеряет источник «Вентиляционный ствол № 1»: " +
        "его измеряют датчики мест «Ствол (канал вентилятора)»; оставьте источник пустым",
    );
    expect(preview.errors[1].message).toMatch(/^место «На крыше» не найдено: У забоя/);
  });

  // D87: a meter at «другое место» may name the norm's row it is read against.
  it("reads the norm's row of a meter at «Другое место», and refuses one elsewhere or of no row", async () => {
    const list = (rows: string[]) => csv(["Код датчика;Вид датчика;Выработка;Место датчика;Норма загазирования", ...rows].join("\n"));
    const refused = await previewSensorList(
      d.deps,
      staff,
      facility,
      list(["Н-1;Метан;Камера 1;У забоя;в исходящей струе крыла, шахты", "Н-2;Метан;Камера 2;Другое место;на луне"]),
    );
    expect(refused.errors.map((e) => [e.row, e.column, e.message])).toEqual([
      [2, "Норма загазирования", "норма указывается только для места «Другое место»: у остальных мест норма своя (D87)"],
      [
        3,
        "Норма загазирования",
        "норма «на луне» не найдена: в выработке и ее исходящей струе, в исходящей струе крыла, шахты, в поступающей струе, в газоотсасывающем трубопроводе",
      ],
    ]);
    const made = await d.write(() =>
      importSensorList(
        d.deps,
        staff,
        facility,
        list(["Н-3;Метан;Камера 3;Другое место;в исходящей струе крыла, шахты", "Н-4;Метан;Камера 4;;поступающая"]),
      ),
    );
    expect(made.map((s) => [s.code, s.place, s.norm_place])).toEqual([
      ["Н-3", "other", "wing_outgoing"],
      ["Н-4", "other", "intake"],
    ]);
  });

  it("undoes its own writes when one fails midway", async () => {
    const list = csv([HEADER, "Б-1;Метан;Вентиляционный ствол № 1;;;;;", "Б-2;Метан;Вентиляционный ствол № 1;;;;;"].join("\n"));
    const before = (await listSensors(d.deps, staff, facility)).length;
    const create = d.deps.repos.sensors.create;
    let calls = 0;
    d.deps.repos.sensors.create = async (sensor) => {
      if (++calls === 2) throw new Error("запись не удалась");
      return create(sensor);
    };
    try {
      await expect(d.write(() => importSensorList(d.deps, staff, facility, list))).rejects.toThrow("запись не удалась");
    } finally {
      d.deps.repos.sensors.create = create;
    }
    expect((await listSensors(d.deps, staff, facility)).length).toBe(before);
    // The room it took is given back: the same list goes in now.
    expect((await d.write(() => importSensorList(d.deps, staff, facility, list))).map((s) => s.code)).toEqual(["Б-1", "Б-2"]);
  });

  it("is another company's facility to no one", async () => {
    await expect(previewSensorList(d.deps, other, facility, csv(HEADER))).rejects.toThrow("Площадка не найдена");
  });
});

// a list with the АГК's other gas channels, named as dispatch systems name them, is taken
// whole (a CO line refused it whole before).
describe("the АГК's other gas channels in the list", () => {
  it("reads carbon monoxide, oxygen and carbon dioxide by their words, CO's levels in ppm", async () => {
    const list = csv(
      [
        HEADER,
        "CO-1;Оксид углерода;Вентиляционный ствол № 1;;10;17;;",
        "CO-2;угарный газ;Вентиляционный ствол № 1;;;;;",
        "O2-1;Кислород;Вентиляционный ствол № 1;;;;;",
        "CO2-1;CO2;Вентиляционный ствол № 1;;;0,5;;",
      ].join("\n"),
    );
    expect((await previewSensorList(d.deps, staff, facility, list)).errors).toEqual([]);
    const made = await d.write(() => importSensorList(d.deps, staff, facility, list));
    expect(made.map((s) => [s.code, s.kind, s.warning, s.alarm])).toEqual([
      ["CO-1", "carbon_monoxide", 10, 17],
      ["CO-2", "carbon_monoxide", null, null],
      ["O2-1", "oxygen", null, null],
      ["CO2-1", "carbon_dioxide", null, 0.5],
    ]);
  });

  it("reads the shearer's run state and its position by the words a dispatch list uses", async () => {
    const list = csv(
      [HEADER, "К-12;Комбайн в работе;;;;;;", "ПК-12;Положение комбайна;;;;;;", "ПК-14;Координата комбайна;;;;;;"].join("\n"),
    );
    expect((await previewSensorList(d.deps, staff, facility, list)).errors).toEqual([]);
    const made = await d.write(() => importSensorList(d.deps, staff, facility, list));
    expect(made.map((s) => [s.code, s.kind])).toEqual([
      ["К-12", "run_status"],
      ["ПК-12", "shearer_position"],
      ["ПК-14", "shearer_position"],
    ]);
  });

  it("refuses an oxygen row with a level, naming its row and column", async () => {
    const list = csv([HEADER, "O2-9;Кислород;Вентиляционный ствол № 1;;;18;;"].join("\n"));
    expect((await previewSensorList(d.deps, staff, facility, list)).errors).toEqual([
      {
        sheet: "CSV",
        row: 2,
        column: "Аварийный уровень A, % об. (CO — ppm)",
        message: "у датчика вида «Кислород (O2)» уровней W и A нет",
      },
    ]);
  });

  it("carries the air path: the order by the air and fresh air before a meter (D103)", async () => {
    const head = "Код датчика;Вид датчика;Участок;Место датчика;Порядок по струе;Свежий воздух перед датчиком";
    const list = csv(
      [
        head,
        "ДМ-31;Метан;Участок 31;Исходящая струя выемочного участка;;да",
        "ДМ-32;Метан;Участок 31;Другое место;25;нет",
        "ДМ-33;Метан;Участок 31;У забоя (призабойное пространство);;",
      ].join("\n"),
    );
    expect((await previewSensorList(d.deps, staff, facility, list)).errors).toEqual([]);
    const made = await d.write(() => importSensorList(d.deps, staff, facility, list));
    expect(made.map((s) => [s.code, s.airflow_order, s.fresh_air_joins])).toEqual([
      ["ДМ-31", null, true],
      ["ДМ-32", 25, false],
      ["ДМ-33", null, false],
    ]);
    const bad = csv([head, "ДМ-34;Метан;Участок 31;Другое место;2,5;может быть"].join("\n"));
    expect((await previewSensorList(d.deps, staff, facility, bad)).errors.map((e) => [e.column, e.message])).toEqual([
      ["Свежий воздух перед датчиком", "ожидается «да» или «нет», найдено «может быть»"],
    ]);
    const fraction = csv([head, "ДМ-35;Метан;Участок 31;Другое место;2,5;"].join("\n"));
    expect((await previewSensorList(d.deps, staff, facility, fraction)).errors.map((e) => e.column)).toEqual(["Порядок по струе"]);
  });
});
