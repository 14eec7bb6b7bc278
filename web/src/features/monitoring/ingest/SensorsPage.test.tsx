// @vitest-environment happy-dom
// «Датчики» of a facility (D56): an anemometer added with its cross-section typed «14,5» key by key and
// sent as 14.5 with its point; the register listed by code with the kind's label, the point's name and
// W/A as «1 / 1,5»; a gateway key made, shown once in a dialog, then listed by its first characters only;
// «Загрузить выгрузку АГК»: an empty file refused before sending, a CSV granted an upload, PUT with its
// progress, stored as a batch and its state read again until done, then the counts in Russian numbers
// («3 100») and the refused lines by number and reason, ten a page. On a wide screen a row keeps
// «Пропуски» in sight and «Изменить» and «Вывести из эксплуатации» behind «…», its columns sized to their
// words (no fixed layout that broke «Вентиляцио|нный»); on a phone each sensor is a block of lines.
// What the page shows on open, its rows' actions and a sensor added from it open the page; the batches,
// the gateway keys and the two upload dialogs are rendered alone.
import { useState } from "react";
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, expect, it, vi } from "vitest";
import { ADVISORY_NOTE, SENSOR_KIND_NAMES } from "@core/monitoring";
import { SENSOR_PLACE_NAMES } from "@core/sensor-places";
import { closeApp, openPage, openPart, type OpenApp, setField } from "../../../testing/render-app";
import { type ContractApi, success } from "../../../testing/contract-api";
import { api } from "../../../api/client";
import { queryClient } from "../../../app/store";
import { useSensors } from "../../../api/monitoring";
import { checksDue, methaneLimitsInForce } from "../../../testing/fixtures";
import { atPhoneWidth } from "../../../testing/dom-globals";
import BatchesCard from "./BatchesCard";
import DispatchFileDialog from "./DispatchFileDialog";
import SensorImportDialog from "./SensorImportDialog";
import GatewayKeysCard from "./GatewayKeysCard";
import SensorsPage from "./SensorsPage";
import { conditionOptions, ROLES } from "../texts/sensorTexts";

let app: OpenApp;

afterEach(() => {
  batches = [];
  expect(app.api.mistakes).toEqual([]);
  vi.restoreAllMocks();
  closeApp();
});

const AT = "2026-03-01T03:00:00.000Z";
const FACILITY = {
  id: "f1",
  company: "company-1",
  name: "Шахта «Распадская»",
  kind: "underground_mine" as const,
  licence_number: "",
  address: "",
  is_active: true,
  created_at: AT,
  updated_at: AT,
  version: 1,
};
const POINT = {
  id: "p1",
  company: "company-1",
  facility: "f1",
  name: "Ствол № 2",
  kind: "ventilation_shaft" as const,
  instrument: "",
  frequency: "",
  in_service_from: null,
  in_service_to: null,
  is_active: true,
  created_at: AT,
  updated_at: AT,
  version: 1,
};
const register = {
  code: "М-12",
  kind: "methane" as const,
  point: null,
  role: "cut_off" as const,
  working: "Лава 24-58",
  section: "Выемочный участок 24-58",
  place: "face_10_20m" as const,
  warning: 1,
  alarm: 1.5,
  area_m2: null,
  conditions: "standard" as const,
  in_service_from: null,
  in_service_to: null,
};
const METHANE = {
  id: "s1",
  company: "company-1",
  facility: "f1",
  ...register,
  is_active: true,
  revisions: [{ ...register, valid_from: "1970-01-01T00:00:00.000Z" }],
  created_at: AT,
  updated_at: AT,
  version: 1,
};
const KEY = "agk_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG";

/** The dry run's answer: the first time a list with a bad row, then the list fixed. */
let previews = 0;
function listPreview() {
  previews++;
  const columns = [
    { name: "code", header: "Код датчика", label: "Код датчика", unit: "" },
    { name: "kind", header: "Вид датчика", label: "Вид датчика", unit: "" },
    { name: "point", header: "Источник выбросов", label: "Источник выбросов", unit: "" },
  ];
  const rows = [
    { row: 2, values: { code: "М-20", kind: "Метан", point: "Ствол № 2" } },
    { row: 3, values: { code: "М-21", kind: "Метан", point: "Ствол № 9" } },
  ];
  const errors =
    previews === 1
      ? [{ sheet: "CSV", row: 3, column: "Источник выбросов", message: "источника «Ствол № 9» нет у площадки: «Ствол № 2»" }]
      : [];
  return { format: "csv", sheet: "CSV", count: previews === 1 ? 2 : 1, columns, rows: previews === 1 ? rows : rows.slice(0, 1), errors };
}

/** The facility's batches («Загрузки АГК»), newest first: a file set aside, a push applied. */
const SET_ASIDE = "хранилище не приняло показания датчика «М-12» за 01.03.2026";
let batches: unknown[] = [];
const listed = (batch: string, received_at: string, fields: object) => ({
  batch,
  facility: "f1",
  received_at,
  lines: 0,
  accepted: 0,
  duplicate: 0,
  corrected: 0,
  refused_count: 0,
  readings_sha256: "0".repeat(64),
  ...fields,
});

/** The facility's register and keys as the server keeps them, written by the page's calls. */
function facilityServer(api: ContractApi) {
  const sensors: unknown[] = [METHANE];
  const keys: unknown[] = [];
  api
    .on("listFacilities", [FACILITY])
    .on("listMethaneLimits", methaneLimitsInForce())
    .on("sensorChecksDue", checksDue())
    .on("listEmissionPoints", [POINT])
    .on("listSensors", () => sensors)
    .on("listGatewayKeys", () => keys)
    .on("listReadingsBatches", () => batches)
    .on("retireSensor", ({ params }) => {
      const at = sensors.findIndex((s) => (s as { id: string }).id === params.sensor);
      sensors[at] = { ...(sensors[at] as object), is_active: false, in_service_to: "2026-03-01" };
      return sensors[at];
    })
    .on("createSensor", ({ body }) => {
      const fields = body as typeof register;
      const made = { ...METHANE, ...fields, id: "s2", revisions: [{ ...register, ...fields, valid_from: AT }] };
      sensors.push(made);
      return made;
    })
    .on("importSensors", ({ query }) => {
      if (query.get("dry_run") === "1") return success(200, listPreview());
      const made = { ...METHANE, id: "s3", code: "М-20", revisions: [{ ...register, code: "М-20", valid_from: AT }] };
      sensors.push(made);
      return [made];
    })
    .on("createGatewayKey", ({ body }) => {
      const made = {
        id: "k1",
        facility: "f1",
        label: (body as { label: string }).label,
        prefix: KEY.slice(0, 10),
        created_at: AT,
        created_by: "staff@example.com",
        revoked_at: null,
      };
      keys.push(made);
      return { ...made, key: KEY };
    });
}

function openSensors() {
  app = openPage({ path: "/facilities/f1/sensors", route: "/facilities/:facilityId/sensors", page: <SensorsPage /> }, facilityServer);
}

/** A dialog of the page alone, open until it closes itself (the page then leaves it out). */
function OpenDialog({ dialog: Dialog }: { dialog: typeof SensorImportDialog }) {
  const [open, setOpen] = useState(true);
  return open ? <Dialog facility="f1" onClose={() => setOpen(false)} /> : null;
}

/** The register's codes as the page's list reads them (useSensors), to see it read again after a write. */
function RegisterCodes() {
  const sensors = useSensors("f1");
  return <output data-testid="register">{(sensors.data ?? []).map((s) => s.code).join(", ")}</output>;
}

it("adds an anemometer with its cross-section typed key by key and lists the register by code, with the advisory note", async () => {
  openSensors();
  await screen.findByText("М-12");
  expect(screen.getByText(ADVISORY_NOTE)).toBeTruthy();
  // a methane meter's row names the act, point and edition of the limit it is read against;
  // D87: the norm of where it hangs (10–20 m from the face: the working's 1 %), not its A of 1,5 %.
  expect(
    await screen.findByText(
      // The screen keeps «1 %» on one line; the matcher compares the text with its spaces made plain.
      "Норма 1 % в выработке и ее исходящей струе — Правила безопасности в угольных шахтах (приказ № 507 от 08.12.2020), п. 122, приложение № 3",
    ),
  ).toBeTruthy();
  // The act's text not read: said once on the page, beside the act, not on each norm's line.
  expect((await screen.findAllByTestId("acts-not-read")).map((e) => e.textContent)).toEqual([
    "Правила безопасности в угольных шахтах (приказ № 507 от 08.12.2020) — текст акта не прочитан",
  ]);
  expect(document.body.textContent!.split("текст акта не прочитан")).toHaveLength(2);
  const row = screen.getByText("М-12").closest("tr")!;
  // the longwall's meter at its place in its section, measuring no point.
  expect(row.textContent).toContain("Выемочный участок 24-58, Лава 24-58");
  expect(row.textContent).toContain("В 10–20 м от забоя");
  expect(row.textContent).not.toContain("Ствол");
  expect(row.textContent).toContain("1 / 1,5");
  expect(row.textContent).toContain("отключающий");
  expect(row.textContent).not.toContain("p1");

  await app.user.click(screen.getByText("Добавить датчик").closest("button")!);
  const dialog = (await screen.findByText("Новый датчик", { selector: ".ant-modal-title" })).closest<HTMLElement>("[role=dialog]")!;
  const inside = within(dialog);
  await setField(app.user, inside.getByLabelText("Код датчика в АГК"), "АН-3");
  await app.user.click(inside.getByLabelText("Вид датчика"));
  await app.user.click(await screen.findByText("Скорость воздуха, м/с"));
  const area = await inside.findByLabelText("Площадь сечения выработки");
  await app.user.type(area, "14,5");
  // A channel of «Другое место» measures no ventilation shaft: no point is offered until its place is the shaft's.
  await app.user.click(inside.getByLabelText("Измеряет источник выбросов"));
  expect(document.querySelector(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option")).toBeNull();
  await app.user.click(inside.getByLabelText("Место датчика"));
  await app.user.click(await screen.findByText("Ствол (канал вентилятора)"));
  await app.user.click(inside.getByLabelText("Измеряет источник выбросов"));
  // «№ 2» kept on one line (a no-break space) — the option as the point is named.
  await app.user.click(await screen.findByTitle("Ствол № 2"));
  await app.user.click(inside.getByText("Добавить").closest("button")!);
  await waitFor(() => expect(app.api.calls("createSensor")).toHaveLength(1));
  expect(app.api.calls("createSensor")[0].body).toMatchObject({
    code: "АН-3",
    kind: "air_velocity",
    point: "p1",
    place: "shaft",
    section: "",
    area_m2: 14.5,
    warning: null,
  });
  await waitFor(() => expect(dialog.isConnected).toBe(false));
  await screen.findByText("АН-3");

  // The register's other two buttons open their dialogs (each tested alone below).
  await app.user.click(screen.getByText("Загрузить список").closest("button")!);
  await screen.findByText("Загрузить список датчиков", { selector: ".ant-modal-title" });
  await app.user.keyboard("{Escape}");
  await app.user.click(screen.getByText("Загрузить выгрузку АГК").closest("button")!);
  await screen.findByText("Загрузить выгрузку АГК", { selector: ".ant-modal-title" });
});

// D87: a meter at «Другое место» reads the working's norm unless the register names a row.
it("names the norm's row of a methane meter at «Другое место», and the register prints the norm it is read against", async () => {
  openSensors();
  await screen.findByText("М-12");
  await app.user.click(screen.getByText("Добавить датчик").closest("button")!);
  const dialog = (await screen.findByText("Новый датчик", { selector: ".ant-modal-title" })).closest<HTMLElement>("[role=dialog]")!;
  const inside = within(dialog);
  await setField(app.user, inside.getByLabelText("Код датчика в АГК"), "Р-1");
  // No place is chosen for a new sensor: adding it without one is refused under the field, nothing sent.
  expect(inside.queryByLabelText("Норма загазирования")).toBeNull();
  await app.user.click(inside.getByText("Добавить").closest("button")!);
  await inside.findByText("Выберите место датчика: по нему читается норма загазирования");
  expect(app.api.calls("createSensor")).toHaveLength(0);
  await app.user.click(inside.getByLabelText("Место датчика"));
  await app.user.click(await screen.findByText("Другое место"));
  await app.user.click(inside.getByLabelText("Норма загазирования"));
  await app.user.click(await screen.findByText("норма в исходящей струе крыла, шахты"));
  await app.user.click(inside.getByText("Добавить").closest("button")!);
  await waitFor(() => expect(app.api.calls("createSensor")).toHaveLength(1));
  expect(app.api.calls("createSensor")[0].body).toMatchObject({
    code: "Р-1",
    kind: "methane",
    place: "other",
    norm_place: "wing_outgoing",
  });
  await waitFor(() => expect(dialog.isConnected).toBe(false));
  const row = (await screen.findByText("Р-1")).closest("tr")!;
  expect(row.textContent).toContain("Норма 0,75\u00a0% в исходящей струе крыла, шахты");
  // The field is only for «Другое место»: a face meter has its own norm.
  await app.user.click(screen.getByText("Добавить датчик").closest("button")!);
  const again = (await screen.findByText("Новый датчик", { selector: ".ant-modal-title" })).closest<HTMLElement>("[role=dialog]")!;
  await app.user.click(within(again).getByLabelText("Место датчика"));
  await app.user.click(await screen.findByText("У забоя (призабойное пространство)"));
  await waitFor(() => expect(within(again).queryByLabelText("Норма загазирования")).toBeNull());
});

it("keeps «Пропуски» in a row and its rarer actions behind «…»: «Изменить» opens the sensor, «Вывести из эксплуатации» asks first", async () => {
  openSensors();
  const row = (await screen.findByText("М-12")).closest("tr")!;
  // Sized to its words: a fixed layout (with a column fixed at the right) broke them inside.
  expect(row.closest("table")!.style.tableLayout).toBe("auto");
  expect(document.querySelector(".ant-table-cell-fix-right, .ant-table-cell-fix-left")).toBeNull();
  expect(within(row).getByRole("link", { name: "Пропуски" }).getAttribute("href")).toBe("/facilities/f1/sensors/s1/gaps");
  expect(within(row).queryByText("Изменить")).toBeNull();
  expect(within(row).queryByText("Вывести из эксплуатации")).toBeNull();

  await app.user.click(within(row).getByRole("button", { name: "Другие действия с датчиком М-12" }));
  const menu = await screen.findByRole("menu", { name: "Действия с датчиком М-12" });
  await app.user.click(within(menu).getByRole("menuitem", { name: "Изменить" }));
  const dialog = (await screen.findByText("Изменить датчик «М-12»", { selector: ".ant-modal-title" })).closest<HTMLElement>(
    "[role=dialog]",
  )!;
  expect(within(dialog).getByLabelText<HTMLInputElement>("Код датчика в АГК").value).toBe("М-12");
  await app.user.keyboard("{Escape}");
  await waitFor(() => expect(dialog.isConnected).toBe(false));

  await app.user.click(within(row).getByRole("button", { name: "Другие действия с датчиком М-12" }));
  await app.user.click(
    within(await screen.findByRole("menu", { name: "Действия с датчиком М-12" })).getByRole("menuitem", {
      name: "Вывести из эксплуатации",
    }),
  );
  const confirm = (await screen.findByText("Вывести датчик «М-12» из эксплуатации?")).closest<HTMLElement>(".ant-popover")!;
  expect(app.api.calls("retireSensor")).toHaveLength(0);
  await app.user.click(within(confirm).getByText("Вывести").closest("button")!);
  await waitFor(() => expect(app.api.calls("retireSensor")).toHaveLength(1));
  expect(app.api.calls("retireSensor")[0].params).toMatchObject({ id: "f1", sensor: "s1" });
  await screen.findByText("Выведен");
});

it("on a phone shows each sensor as a block of lines: code, kind, section, place, point, role, levels, «Пропуски» and «…»", async () => {
  atPhoneWidth();
  openSensors();
  const blocks = await screen.findAllByTestId("stacked-rows");
  const register = blocks.find((b) => b.textContent?.includes("М-12"))!;
  expect(register.querySelector("table")).toBeNull();
  for (const shown of [
    "Код",
    "М-12",
    "Вид",
    "Метан (0–4 % об.)",
    "Участок, выработка",
    "Выемочный участок 24-58, Лава 24-58",
    "Место",
    "В 10–20 м от забоя",
    "Измеряет источник",
    "Роль",
    "отключающий",
    "1 / 1,5",
  ]) {
    expect(register.textContent).toContain(shown);
  }
  expect(within(register).getByRole("link", { name: "Пропуски" })).toBeTruthy();
  expect(within(register).getByRole("button", { name: "Другие действия с датчиком М-12" })).toBeTruthy();
  // The card's title is not crowded out by its buttons.
  expect(screen.getByText("Датчики АГК", { selector: ".ant-card-head-title" })).toBeTruthy();
});

it("«Загрузки АГК» lists the facility's batches newest first: one set aside says «не применена» with its reason, its stored readings counted", async () => {
  batches = [
    listed("b2", "2026-03-01T07:05:00.000Z", {
      state: "failed",
      failure: SET_ASIDE,
      lines: 2880,
      accepted: 1440,
      refused_count: 3,
      file_name: "Выгрузка.csv",
    }),
    listed("b1", "2026-03-01T07:00:00.000Z", { state: "done", lines: 5, accepted: 4, duplicate: 1, sent_by: "ключ шлюза «Диспетчерская»" }),
    // three corrections read «Строк 3, Принято 0, Повторы 0, Отклонено 0».
    listed("b0", "2026-03-01T06:55:00.000Z", { state: "done", lines: 3, corrected: 3, sent_by: "Кузнецова О. И." }),
  ];
  app = openPart(<BatchesCard facility="f1" />, facilityServer);
  const card = (await screen.findByText("Загрузки АГК", { selector: ".ant-card-head-title" })).closest<HTMLElement>(".ant-card")!;
  await within(card).findByText(`не применена: ${SET_ASIDE}`);
  const [failed, done, corrections] = within(card)
    .getAllByRole("row")
    .filter((r) => r.querySelector("td"));
  const heads = within(card)
    .getAllByRole("columnheader")
    .map((h) => h.textContent);
  expect(heads.slice(4)).toEqual(["Строк", "Принято", "Повторы", "Исправлено", "Отклонено строк"]);
  expect([...corrections.querySelectorAll("td")].slice(4).map((c) => c.textContent)).toEqual(["3", "0", "0", "3", "0"]);
  // D89: who sent each batch; a user's push is no gateway's.
  expect(heads[2]).toBe("Отправил");
  expect(corrections.textContent).toContain("передача пользователя");
  expect(corrections.textContent).toContain("Кузнецова О. И.");
  // On the company's clock (the default, Novokuznetsk, UTC+7), newest first.
  expect(failed.textContent).toContain("01.03.2026 14:05");
  expect(failed.textContent).toContain("выгрузка «Выгрузка.csv»");
  expect(failed.textContent).toContain(`не применена: ${SET_ASIDE}`);
  expect(failed.textContent).toContain("2\u00a0880");
  expect(failed.textContent).toContain("1\u00a0440");
  expect(done.textContent).toContain("передача шлюза");
  expect(done.textContent).toContain("ключ шлюза «Диспетчерская»");
  expect(done.textContent).toContain("применена");
  expect(done.textContent).not.toContain("не применена");
});

it("shows a new gateway key once, then lists it by its first characters only", async () => {
  app = openPart(<GatewayKeysCard facility="f1" />, facilityServer);
  await screen.findByText("Ключей пока нет");
  await setField(app.user, screen.getByLabelText("Название ключа"), "Шлюз диспетчерской");
  await app.user.click(screen.getByText("Создать ключ").closest("button")!);
  const shown = (await screen.findByText("Ключ «Шлюз диспетчерской»", { selector: ".ant-modal-title" })).closest<HTMLElement>(
    "[role=dialog]",
  )!;
  expect(shown.textContent).toContain(KEY);
  expect(shown.textContent).toContain("показывается один раз");
  await app.user.click(within(shown).getByText("Я сохранил ключ").closest("button")!);
  await waitFor(() => expect(document.body.textContent).not.toContain(KEY));
  const row = (await screen.findByText("Шлюз диспетчерской")).closest("tr")!;
  expect(row.textContent).toContain(`${KEY.slice(0, 10)}…`);
  expect(row.textContent).toContain("Действует");
});

it("imports the mine's sensor list only once its preview names no bad row", async () => {
  previews = 0;
  app = openPart(
    <>
      <RegisterCodes />
      <OpenDialog dialog={SensorImportDialog} />
    </>,
    facilityServer,
  );
  await waitFor(() => expect(screen.getByTestId("register").textContent).toBe("М-12"));
  const dialog = (await screen.findByText("Загрузить список датчиков", { selector: ".ant-modal-title" })).closest<HTMLElement>(
    "[role=dialog]",
  )!;
  const inside = within(dialog);
  const ok = () => inside.getByText("Загрузить", { selector: "button span" }).closest("button")!;
  expect(ok().disabled).toBe(true);
  // antd puts a new input in place after each choice.
  const input = () => dialog.querySelector<HTMLInputElement>("input[type=file]")!;
  await app.user.upload(input(), new File(["Код датчика;Вид датчика;Источник выбросов"], "Датчики.csv", { type: "text/csv" }));
  await inside.findByText("Лист «CSV», строка 3, столбец «Источник выбросов»: источника «Ствол № 9» нет у площадки: «Ствол № 2»");
  expect(inside.getByText(/Ошибок в файле: 1/)).toBeTruthy();
  expect(ok().disabled).toBe(true);
  expect(app.api.calls("importSensors").map((c) => c.query.get("dry_run"))).toEqual(["1"]);

  await app.user.upload(input(), new File(["Код датчика;Вид датчика;Источник выбросов"], "Датчики-2.csv", { type: "text/csv" }));
  await inside.findByText(/Ошибок не найдено/);
  await waitFor(() => expect(ok().disabled).toBe(false));
  await app.user.click(ok());
  await waitFor(() => expect(app.api.calls("importSensors").map((c) => c.query.get("dry_run"))).toEqual(["1", "1", null]));
  await waitFor(() => expect(dialog.isConnected).toBe(false));
  await waitFor(() => expect(screen.getByTestId("register").textContent).toBe("М-12, М-20"));
});

const REFUSED = Array.from({ length: 12 }, (_, i) => ({ line: i + 3, reason: `«обрыв»: не число (строка ${i + 3})` }));

it("«Загрузить выгрузку АГК» sends a dispatch export, follows its batch until done and lists the refused lines a page at a time", async () => {
  let reads = 0;
  const put = vi.spyOn(api, "putFile").mockImplementation(async (_url, file, _headers, onProgress) => {
    onProgress?.(file.size / 2, file.size);
    onProgress?.(file.size, file.size);
  });
  app = openPart(<OpenDialog dialog={DispatchFileDialog} />, (a) =>
    a
      .on("readingsUploadUrl", {
        url: "/api/v1/uploads/?token=t",
        method: "PUT",
        headers: { "Content-Type": "text/csv" },
        upload_id: "u1",
        expires_at: AT,
        file_upload: "telemetry/company-1/f1/x.csv",
      })
      .on("importReadingsFile", () => success(202, { batch: "b1", status_url: "/api/v1/telemetry/batches/b1/" }))
      .on("getReadingsBatch", () => {
        reads++;
        const done = reads > 1;
        return {
          batch: "b1",
          facility: "f1",
          state: done ? "done" : "queued",
          received_at: AT,
          lines: 3112,
          accepted: done ? 3100 : 0,
          duplicate: 0,
          corrected: 0,
          refused: done ? REFUSED : [],
          // a file's refusals counted apart.
          ...(done ? { refused_values: 10, refused_lines: 1, incomplete_lines: 1 } : {}),
          readings_sha256: "0".repeat(64),
          file_name: "Выгрузка.csv",
        };
      }),
  );
  const dialog = (await screen.findByText("Загрузить выгрузку АГК", { selector: ".ant-modal-title" })).closest<HTMLElement>(
    "[role=dialog]",
  )!;
  const inside = within(dialog);
  // every form of time and value the reader takes.
  expect(dialog.textContent).toContain(
    "время «ДД.ММ.ГГГГ ЧЧ:ММ:СС» или «ДД.ММ.ГГГГ ЧЧ:ММ» (год можно двумя цифрами, «ДД.ММ.ГГ»; дата и время могут быть в отдельных столбцах «Дата» и «Время») по часам компании, или ISO 8601 с часовым поясом",
  );
  expect(dialog.textContent).toContain("десятичная запятая или точка («0,45», «7.21»)");
  const ok = () => inside.getByText("Загрузить", { selector: "button span" }).closest("button")!;
  expect(ok().disabled).toBe(true);
  const input = () => dialog.querySelector<HTMLInputElement>("input[type=file]")!;

  await app.user.upload(input(), new File([], "Пустая.csv", { type: "text/csv" }));
  await inside.findByText("Файл пуст");
  expect(ok().disabled).toBe(true);

  await app.user.upload(input(), new File(["Время;М-12\n01.03.2026 10:00:00;0,42\n"], "Выгрузка.csv", { type: "text/csv" }));
  await inside.findByTestId("chosen-dispatch-file");
  await app.user.click(ok());

  await inside.findByText("Обработано; отклонено значений: 10, отклонено строк целиком: 1, неполных строк: 1");
  expect(dialog.textContent).toContain("Отклонено значений (остальные значения строки приняты)");
  expect(dialog.textContent).toContain("Неполных строк (прочитано то, что в них есть)");
  expect(reads).toBeGreaterThanOrEqual(2);
  expect(put).toHaveBeenCalledTimes(1);
  expect(app.api.calls("readingsUploadUrl")[0].body).toMatchObject({ facility: "f1", content_type: "text/csv", name: "Выгрузка.csv" });
  expect(app.api.calls("importReadingsFile")[0].body).toEqual({
    facility: "f1",
    file_upload: "telemetry/company-1/f1/x.csv",
    name: "Выгрузка.csv",
  });
  expect(dialog.textContent).toContain("3\u00a0112");
  expect(dialog.textContent).toContain("3\u00a0100");
  const table = (await inside.findByText("«обрыв»: не число (строка 3)")).closest("table")!;
  expect(within(table).queryByText("«обрыв»: не число (строка 13)")).toBeNull();
  await app.user.click(inside.getByTitle("2"));
  await within(table).findByText("«обрыв»: не число (строка 14)");
  expect(within(table).getByText("14").closest("tr")!.textContent).toContain("строка 14");
});

it("«Загрузить выгрузку АГК» says a file set aside after its retries is «не применена» with its reason, its stored readings counted, and stops asking", async () => {
  let reads = 0;
  vi.spyOn(api, "putFile").mockImplementation(async () => undefined);
  const failure = "хранилище не приняло показания датчика «М-12» за 01.03.2026 (Item size has exceeded the maximum allowed size)";
  app = openPart(<OpenDialog dialog={DispatchFileDialog} />, (a) =>
    a
      .on("readingsUploadUrl", {
        url: "/api/v1/uploads/?token=t",
        method: "PUT",
        headers: { "Content-Type": "text/csv" },
        upload_id: "u1",
        expires_at: AT,
        file_upload: "telemetry/company-1/f1/x.csv",
      })
      .on("importReadingsFile", () => success(202, { batch: "b1", status_url: "/api/v1/telemetry/batches/b1/" }))
      .on("getReadingsBatch", () => {
        reads++;
        return {
          batch: "b1",
          facility: "f1",
          state: reads > 1 ? "failed" : "queued",
          received_at: AT,
          lines: 2880,
          accepted: reads > 1 ? 1440 : 0,
          duplicate: 0,
          corrected: 0,
          refused: [],
          readings_sha256: "0".repeat(64),
          file_name: "Выгрузка.csv",
          ...(reads > 1 ? { failure } : {}),
        };
      }),
  );
  const dialog = (await screen.findByText("Загрузить выгрузку АГК", { selector: ".ant-modal-title" })).closest<HTMLElement>(
    "[role=dialog]",
  )!;
  const inside = within(dialog);
  await app.user.upload(
    dialog.querySelector<HTMLInputElement>("input[type=file]")!,
    new File(["Время;М-12\n01.03.2026 10:00:00;0,42\n"], "Выгрузка.csv", { type: "text/csv" }),
  );
  await inside.findByTestId("chosen-dispatch-file");
  await app.user.click(inside.getByText("Загрузить", { selector: "button span" }).closest("button")!);

  await inside.findByText(`Выгрузка не применена: ${failure}`);
  expect(dialog.textContent).toContain("1\u00a0440");
  // It asks no more: the batch's query keeps no interval (read, not waited for, so a busy machine
  // cannot pass it by asking late).
  const query = queryClient.getQueryCache().find({ queryKey: ["monitoring", "batches", "b1"] })!;
  const intervals = query.observers.map(({ options: { refetchInterval: every } }) => (typeof every === "function" ? every(query) : every));
  expect(intervals).toEqual([false]);
});

// a select's options are read by a screen reader from the accessibility tree, where antd
// kept a hidden list of each open select's options whose text was the option's value — «air_velocity»,
// «recording», a point's id — beside the Russian label the user sees. No select of the register's dialog
// exposes an internal code: every option's name, text and title are the Russian words.
it("exposes no internal code in the options of the register's selects", async () => {
  openSensors();
  await screen.findByText("М-12");
  await app.user.click(screen.getByText("Добавить датчик").closest("button")!);
  const dialog = (await screen.findByText("Новый датчик", { selector: ".ant-modal-title" })).closest<HTMLElement>("[role=dialog]")!;
  const inside = within(dialog);
  const codes = [...SENSOR_KIND_NAMES, ...SENSOR_PLACE_NAMES, ...Object.keys(ROLES), ...conditionOptions.map((o) => o.value), "p1"];
  /** What the open select's options say to a screen reader and on hover: names, texts and titles. */
  const said = () =>
    [...document.querySelectorAll("[role=option], [role=listbox]")].flatMap((el) => [
      el.getAttribute("aria-label") ?? "",
      el.getAttribute("title") ?? "",
      el.textContent ?? "",
      ...[...el.querySelectorAll("[title]")].map((t) => t.getAttribute("title") ?? ""),
    ]);
  const leaked = () =>
    said().flatMap((text) => codes.filter((code) => new RegExp(`(^|[^\\p{L}\\d_-])${code}($|[^\\p{L}\\d_-])`, "u").test(text)));
  for (const [label, pick] of [
    ["Вид датчика", "Расход газовой смеси, м³/мин"],
    ["Место датчика", "Ствол (канал вентилятора)"],
    ["Измеряет источник выбросов", "Ствол № 2"],
    ["Роль датчика", "регистрирующий"],
    ["Условия расхода", "рабочие (по датчикам давления и температуры)"],
  ] as const) {
    await app.user.click(await inside.findByLabelText(label));
    const option = await screen.findByText(
      (_, el) => el?.classList.contains("ant-select-item-option-content") === true && el.textContent === pick,
    );
    // Each option listed for a screen reader is named by its Russian label.
    const names = [...document.querySelectorAll(".ant-select-dropdown:not(.ant-select-dropdown-hidden) [role=option]")].map(
      (el) => el.getAttribute("aria-label") ?? el.textContent ?? "",
    );
    expect(names, label).toContain(pick);
    for (const name of names) expect(name, label).toMatch(/[А-Яа-яЁё]/);
    expect(leaked(), label).toEqual([]);
    await app.user.click(option);
  }
});
