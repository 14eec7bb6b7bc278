// @vitest-environment happy-dom
// Numbers as a Russian user types them into a calculation dialog (D13),
// key by key: «845,5» is 845.5 in the live preview and in what is sent; a minus where negatives make
// no sense, a text that is no number, too many decimals and a dot beside a comma get their message
// under the field, never a silent rewrite, and nothing is sent; «3 100» typed and «12 480,7504»
// pasted as the app prints it are 3100 and 12480.7504; «3100» in «тыс. т» previews and sends
// 3 100 000 t, says so, and the results dialog shows what was typed. The tests of what the dialog says
// and sends render the dialog alone, as «Добавить расчет» opens it; those that follow a calculation
// into the list and its results, or a refusal out of it, render the project's calculations page.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { REGISTRY } from "@core/registry";
import { loadEmissions, type EmissionsCore } from "@core/emissions-browser";
import type { CalculationView } from "@server/contract";
import { formatResult } from "../../shared/decimals";
import { project, referenceDictionary, signedInUser, storedCalculation } from "../../testing/fixtures";
import { failure, type ContractApi } from "../../testing/contract-api";
import { closeApp, openPage, setField, type OpenApp } from "../../testing/render-app";
import { openCalculationDialog, openNewCalculation } from "../../testing/calculation-dialog";
import CalculationsPage from "../../app/CalculationsRoute";

const TYPE = "underground_emission_ch4";
const VOLUME = "Объём добычи угля подземным способом";
const PROJECT = project();

let core: EmissionsCore;
let app: OpenApp;
const resultsFor = (volume: number) => core.calculate(TYPE, { volume, ef: 18 }, { gwp_ch4: 25 }) as Record<string, number>;

// The page's lazy chunks, loaded once before the tests (the first load transforms them).
beforeAll(async () => {
  [core] = await Promise.all([
    loadEmissions(),
    import("./CalculationsWorkspace"),
    import("./CalculationDialog"),
    import("./ResultsDialog"),
  ]);
});

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

/** A server that stores what is created and lists it; `refusals` answer the first creates instead. */
const calculationsServer =
  (refusals: ReturnType<typeof failure>[] = []) =>
  (api: ContractApi) => {
    const stored: CalculationView[] = [];
    api
      .on("getMe", signedInUser())
      .on("getProject", PROJECT)
      .on("getDictionary", ({ params }) => referenceDictionary(params.name))
      .on("listCalculations", () => ({ results: stored, count: stored.length }))
      .on("singleCalculation", ({ params }) => stored.find((calculation) => calculation.id === params.id))
      .on("createCalculation", ({ body }) => {
        const refusal = refusals.shift();
        if (refusal) return refusal;
        const sent = body as Record<string, unknown>;
        const calculation = storedCalculation(TYPE, sent, resultsFor(Number(sent.volume)), { id: `calculation-${stored.length + 1}` });
        stored.unshift(calculation);
        return calculation;
      });
  };

/** How the next «Новый расчет» opens: by «Добавить расчет» on the page, or as that button does. */
let startNew: () => Promise<void>;

/** The project's calculations page, the list and the dialogs. */
function openCalculations(refusals: ReturnType<typeof failure>[] = []) {
  const page = {
    path: `/projects/${PROJECT.id}/calculations?type=${TYPE}`,
    route: "/projects/:projectId/calculations",
    page: <CalculationsPage />,
  };
  app = openPage(page, calculationsServer(refusals));
  startNew = async () => app.user.click(button(await screen.findByText("Добавить расчет")));
}

/** The dialog alone, against the same server. */
function openDialog() {
  app = openCalculationDialog(TYPE, PROJECT.id, calculationsServer());
  startNew = openNewCalculation;
}

/** Opens «Новый расчет» and names the calculation. The name is pasted: it is not what these tests
 *  check (the numbers are, typed key by key), and each key typed still draws its row and the preview. */
async function newCalculation(name?: string) {
  await startNew();
  const title = await screen.findByText("Новый расчет", { selector: ".ant-modal-title" });
  const dialog = title.closest<HTMLElement>("[role=dialog]")!;
  const inside = within(dialog);
  await inside.findByText(REGISTRY[TYPE].title, { exact: true });
  if (name) {
    await app.user.click(inside.getByLabelText("Название расчета"));
    await app.user.paste(name);
  }
  const volume = inside.getByLabelText(VOLUME) as HTMLInputElement;
  return { dialog, inside, volume };
}

const button = (label: HTMLElement) => label.closest("button")!;
const problemIn = (dialog: HTMLElement) => dialog.querySelector(".numeric-input-problem")?.textContent ?? null;
const previewOf = (dialog: HTMLElement, field: string) => within(dialog).queryByTestId(`preview-${field}`)?.textContent;
const sentBodies = () => app.api.calls("createCalculation").map((call) => call.body as Record<string, unknown>);

describe("a decimal comma and one number format in the calculation dialog", () => {
  it("reads «845,5» typed key by key as 845.5: the preview shows its result, and 845.5 is sent and listed", async () => {
    openCalculations();
    const { dialog, inside, volume } = await newCalculation("Десятичная запятая");
    await app.user.type(volume, "845,5");
    expect(volume.value).toBe("845,5");
    const expected = resultsFor(845.5);
    await waitFor(() => expect(previewOf(dialog, "res_ch4")).toBe(formatResult(expected.res_ch4, 2)));
    expect(previewOf(dialog, "res_ch4_to_co2")).toBe(formatResult(expected.res_ch4_to_co2, 2));
    // Ten times the volume would read otherwise: the comma was not dropped.
    expect(formatResult(expected.res_ch4, 2)).not.toBe(formatResult(resultsFor(8455).res_ch4, 2));
    expect(problemIn(dialog)).toBeNull();
    await app.user.click(button(inside.getByText("Создать")));
    await waitFor(() => expect(dialog.isConnected).toBe(false));
    expect(sentBodies()).toEqual([expect.objectContaining({ name: "Десятичная запятая", project: PROJECT.id, volume: 845.5 })]);
    // The list shows the stored result the Russian way.
    const row = (await screen.findByText("Десятичная запятая")).closest<HTMLElement>(".ant-table-row")!;
    expect(row.textContent).toContain(`${formatResult(expected.res_ch4_to_co2, 2)} т CO2-экв.`);
  });

  it("keeps a minus as typed and says the value cannot be negative; nothing is sent", async () => {
    openDialog();
    const { dialog, inside, volume } = await newCalculation("Отрицательный объём");
    await app.user.type(volume, "-5");
    expect(volume.value).toBe("-5");
    expect(problemIn(dialog)).toBe("Значение не может быть отрицательным");
    expect(volume.getAttribute("aria-invalid")).toBe("true");
    expect(inside.getByTestId("preview-pending").textContent).toContain("Значение не может быть отрицательным");
    await app.user.click(button(inside.getByText("Создать")));
    expect(dialog.isConnected).toBe(true);
    expect(sentBodies()).toEqual([]);
  });

  it("says a text is not a number instead of dropping the letters, and names too many decimals", async () => {
    openDialog();
    const { dialog, volume } = await newCalculation();
    await app.user.type(volume, "84a");
    expect(volume.value).toBe("84a");
    expect(problemIn(dialog)).toBe("Введите число, например 845,5");
    await app.user.clear(volume);
    await app.user.type(volume, "12,34567");
    expect(problemIn(dialog)).toBe("Не больше 4 знаков после запятой");
    // Fixed key by key, the message goes.
    await app.user.clear(volume);
    await app.user.type(volume, "845,5");
    expect(problemIn(dialog)).toBeNull();
  });

  it("answers «Создать» with a letter in a number («18 45о», a Cyrillic о) by saying which field and why, and goes there; nothing is sent", async () => {
    openDialog();
    const { dialog, inside, volume } = await newCalculation("Буква в числе");
    await app.user.type(volume, "18 45о");
    expect(volume.value).toBe("18 45о");
    expect(problemIn(dialog)).toBe("Введите число, например 845,5");
    await app.user.click(inside.getByLabelText("Название расчета"));
    await app.user.click(button(inside.getByText("Создать")));
    await inside.findByText(`Не сохранено: исправьте поле «${VOLUME}» — Введите число, например 845,5`);
    expect(document.activeElement).toBe(volume);
    expect(sentBodies()).toEqual([]);
  });

  it("reads «845.5» with a dot as the same number", async () => {
    openDialog();
    const { dialog, volume } = await newCalculation();
    await app.user.type(volume, "845.5");
    await waitFor(() => expect(previewOf(dialog, "res_ch4")).toBe(formatResult(resultsFor(845.5).res_ch4, 2)));
  });

  it("sends «3 100» typed key by key as 3100 and «12 480,7504» pasted as the app prints it as 12480.7504", async () => {
    openDialog();
    const create = async (name: string, enter: (volume: HTMLInputElement) => Promise<void>) => {
      const { dialog, inside, volume } = await newCalculation(name);
      await enter(volume);
      await inside.findByTestId("preview-res_ch4");
      expect(problemIn(dialog)).toBeNull();
      await app.user.click(button(inside.getByText("Создать")));
      await waitFor(() => expect(dialog.isConnected).toBe(false));
    };
    await create("Тысячи с пробелом", (volume) => app.user.type(volume, "3 100"));
    await create("Вставлено из конвертера", async (volume) => {
      await app.user.click(volume);
      await app.user.paste(formatResult(12480.7504, 4));
    });
    expect(Object.fromEntries(sentBodies().map((body) => [body.name, body.volume]))).toEqual({
      "Тысячи с пробелом": 3100,
      "Вставлено из конвертера": 12480.7504,
    });
  });

  it("says how to write a number with both a dot and a comma instead of guessing", async () => {
    openDialog();
    const { dialog, volume } = await newCalculation();
    await app.user.type(volume, "1.250,5");
    expect(problemIn(dialog)).toContain("отделяйте разряды пробелом, а дробь запятой");
  });
});

describe("a production in thousand t (D13)", () => {
  it("previews 3 100 thousand t as 3 100 000 t, says so, sends both, and the results show what was typed", async () => {
    openCalculations();
    const { dialog, inside, volume } = await newCalculation("Добыча в тысячах тонн");
    // The unit is what this test checks: the number is set at once.
    await setField(app.user, volume, "3100");
    await app.user.click(inside.getByLabelText(`Единица: ${VOLUME}`));
    const option = await screen.findByTitle("тыс. т");
    await app.user.click(option);
    await inside.findByText("Сохраняется как 3 100 000 т");
    const expected = resultsFor(3_100_000);
    await waitFor(() => expect(previewOf(dialog, "res_ch4")).toBe(formatResult(expected.res_ch4, 2)));

    await app.user.click(button(inside.getByText("Создать")));
    await waitFor(() => expect(dialog.isConnected).toBe(false));
    expect(sentBodies()).toEqual([expect.objectContaining({ volume: 3_100_000, entered: { volume: { value: 3100, unit: "тыс. т" } } })]);

    await app.user.click(await screen.findByText("Добыча в тысячах тонн"));
    const results = (
      await screen.findByText("Добыча в тысячах тонн", { selector: ".ant-modal-title *, .ant-modal-title" })
    ).closest<HTMLElement>("[role=dialog]")!;
    await within(results).findByText("введено: 3 100 тыс. т");
  });
});

// Moved from tests/e2e/web-calculations.test.ts: the dialog's checks and the server's refusals.
describe("what the dialog says before and after sending", () => {
  it("asks for a name before sending anything", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      openDialog();
      const { dialog, inside, volume } = await newCalculation();
      await setField(app.user, volume, "1000000");
      await app.user.click(button(inside.getByText("Создать")));
      await inside.findByText("Введите название расчета");
      expect(warn).toHaveBeenCalledWith("please enter calculation name");
      expect(dialog.isConnected).toBe(true);
      expect(sentBodies()).toEqual([]);
    } finally {
      warn.mockRestore();
    }
  });

  it("keeps what is typed and says why it is not a number; a decimal comma is a number; a blank required field is named", async () => {
    openDialog();
    const { dialog, inside, volume } = await newCalculation();
    await app.user.type(volume, "12a");
    expect(volume.value).toBe("12a"); // never a silent rewrite
    expect(problemIn(dialog)).toBe("Введите число, например 845,5");
    await app.user.clear(volume);
    await app.user.type(volume, "123,45678");
    expect(problemIn(dialog)).toBe("Не больше 4 знаков после запятой");
    await app.user.clear(volume);
    await app.user.type(volume, "123,4567");
    expect(problemIn(dialog)).toBeNull();
    await app.user.clear(volume);
    // A required field left blank is the core's message under it, once touched.
    await waitFor(() =>
      expect([...dialog.querySelectorAll(".ant-form-item-explain-error")].map((e) => e.textContent)).toContain(
        "Поле обязательно для заполнения",
      ),
    );
    await app.user.click(button(inside.getByText("Отмена")));
    await waitFor(() => expect(dialog.isConnected).toBe(false));
  });

  it("shows a server refusal under the field it names, and other refusals on top", async () => {
    openCalculations([
      failure(400, [["volume", "значение отклонено сервером"]]),
      failure(409, "Проект находится в архиве: восстановите его, чтобы добавлять расчеты"),
      // A field the dialog has no place for («file_data: файл пуст»): on top, without its name.
      failure(400, [["file_data", "файл пуст"]]),
    ]);
    const { dialog, inside, volume } = await newCalculation("Отклоненный");
    await app.user.type(volume, "5");
    await app.user.click(button(inside.getByText("Создать")));
    await waitFor(() => expect(volume.closest(".ant-form-item")!.textContent).toContain("Значение отклонено сервером"));
    await app.user.click(button(inside.getByText("Создать")));
    await waitFor(() =>
      expect(inside.getAllByRole("alert").some((alert) => alert.textContent?.includes("Проект находится в архиве"))).toBe(true),
    );
    await app.user.click(button(inside.getByText("Создать")));
    await waitFor(() => expect(inside.getAllByRole("alert").some((alert) => alert.textContent === "Файл пуст")).toBe(true));
    expect(dialog.textContent).not.toContain("file_data");
    await app.user.click(button(inside.getByText("Отмена")));
    await waitFor(() => expect(dialog.isConnected).toBe(false));
    expect(app.api.calls("createCalculation")).toHaveLength(3);
    expect(screen.queryByText("Отклоненный")).toBeNull();
  });
});
