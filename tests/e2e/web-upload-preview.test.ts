// an earlier round in a real browser: a monitoring CSV as Russian Excel saves it (Windows-1251,
// semicolons, Russian headers) is previewed as soon as it is chosen — its periods, the unit of each
// column, the refused row highlighted with its sheet, row and column — nothing is stored; once the
// file is fixed and chosen again the preview is clean and «Создать» saves it. Each test makes its
// project through the API (one of its own on each try) and opens the page on it once.
// Needs web/dist (`npm run build:web`, done by `npm test`) and Debian Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { REGISTRY } from "@core/registry";
import { encodeLegacy } from "../support/legacy-encoding";
import { startTestServer, type TestServer } from "../support/server";
import { callApi, createProjectsAs, openWebApp, signIn, type WebApp } from "../support/web-page";
import type { CalculationOf } from "@server/contract";

const TYPE = "underground";
const HEADER =
  "Начало периода;Конец периода;Расход газовой смеси, м3/мин;Время работы за период, ч;Содержание CH4 в смеси, % об.;Содержание CO2 в смеси, % об.";
const GOOD = ["01.01.2024;31.01.2024;12,5;744;76;10,6", "01.02.2024;28.02.2024;10,25;650,5;76;10,6", "01.03.2024;31.03.2024;11;744;75;10"];
// A period of 28 days holds at most 672 hours: 900 cannot be.
const BAD = [GOOD[0], "01.02.2024;28.02.2024;10,25;900;76;10,6", GOOD[2]];
const csv = (rows: string[]) => Buffer.from(encodeLegacy(`${HEADER}\r\n${rows.join("\r\n")}\r\n`, "windows-1251"));

describe("web app: the preview of an uploaded file", () => {
  let server: TestServer;
  let app: WebApp;
  let page: Page;

  const dialog = () => page.getByRole("dialog", { name: "Новый расчет" });
  const stored = async (projectId: string) =>
    (
      await callApi<{ results: CalculationOf<"underground">[] }>(
        page,
        "GET",
        `/api/v1/${TYPE}/?project=${projectId}&is_active=true&is_deleted=false&limit=50&offset=0`,
      )
    ).json.results;

  beforeAll(async () => {
    server = await startTestServer();
    app = await openWebApp(server);
    page = app.page;
  });

  /** A project of the test's own, its calculations of TYPE open, signed in, in one load. */
  async function openProject(): Promise<string> {
    const [projectId] = await createProjectsAs(server.url, server.demo, ["Шахта с мониторингом 2024"]);
    await signIn(page, server.url, server.demo, `/projects/${projectId}/calculations?type=${TYPE}`);
    return projectId;
  }

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it("shows a Windows-1251 monitoring CSV with Russian headers as read, highlights the refused row, then saves the fixed file", async () => {
    const projectId = await openProject();
    await page.getByRole("button", { name: "Добавить расчет" }).click();
    await dialog().getByText(REGISTRY[TYPE].title, { exact: true }).waitFor();
    await dialog().getByLabel("Название расчета").fill("Мониторинг из файла");
    await dialog().getByText("По периодам измерений", { exact: true }).click();
    const fileField = dialog().locator("input[type=file]");
    await fileField.setInputFiles({ name: "мониторинг.csv", mimeType: "text/csv", buffer: csv(BAD) });

    const preview = dialog().getByTestId("upload-preview");
    await preview.filter({ hasText: "Прочитано строк: 3" }).waitFor();
    // The file's own headers, each with its unit, and the periods as read.
    await preview.getByRole("columnheader", { name: /Расход газовой смеси, м3\/мин\s*м³\/мин/ }).waitFor();
    await preview.getByRole("columnheader", { name: /Время работы за период, ч\s*ч/ }).waitFor();
    await preview.getByRole("cell", { name: "12,5", exact: true }).waitFor();
    await preview.getByRole("cell", { name: "01.03.2024", exact: true }).first().waitFor();
    // The refused row is highlighted and its problem named by sheet, row and column.
    const refused = preview.locator("tr[aria-invalid=true]");
    expect(await refused.count()).toBe(1);
    expect(await refused.locator("td").first().innerText()).toBe("3");
    await refused.getByText("900", { exact: true }).waitFor();
    await preview
      .getByRole("alert")
      .filter({ hasText: "Лист «CSV», строка 3, столбец «Время работы за период, ч»" })
      .filter({ hasText: "Время работы больше продолжительности периода" })
      .waitFor();
    expect(await stored(projectId)).toEqual([]);

    // The engineer fixes the file and chooses it again: the preview is clean, and it saves.
    await fileField.setInputFiles({ name: "мониторинг исправлен.csv", mimeType: "text/csv", buffer: csv(GOOD) });
    await preview.filter({ hasText: "Ошибок не найдено" }).waitFor();
    expect(await preview.locator("tr[aria-invalid=true]").count()).toBe(0);
    await dialog().getByRole("button", { name: "Создать" }).click();
    await dialog().waitFor({ state: "hidden" });
    await expect.poll(async () => (await stored(projectId)).map((c) => [c.name, c.periods.length])).toEqual([["Мониторинг из файла", 3]]);
  });

  it("scrolls the preview to a bad cell in the far-right column of a late row, across the dialog's width", async () => {
    // 40 days of March; row 37 (the file's 36th day) holds CH4 80 % and CO2 40 %: over 100 %.
    const days = Array.from({ length: 40 }, (_, i) => {
      const d = new Date(Date.UTC(2024, 2, 1 + i));
      const day = `${String(d.getUTCDate()).padStart(2, "0")}.${String(d.getUTCMonth() + 1).padStart(2, "0")}.2024`;
      return i === 35 ? `${day};${day};1;10;80;40` : `${day};${day};1;10;50;5`;
    });
    await openProject();
    await page.getByRole("button", { name: "Добавить расчет" }).click();
    await dialog().getByText(REGISTRY[TYPE].title, { exact: true }).waitFor();
    await dialog().getByText("По периодам измерений", { exact: true }).click();
    await dialog()
      .locator("input[type=file]")
      .setInputFiles({ name: "сорок дней.csv", mimeType: "text/csv", buffer: csv(days) });
    const preview = dialog().getByTestId("upload-preview");
    await preview.filter({ hasText: "Прочитано строк: 40 (показаны первые 20 и ниже строки с ошибками: 1)" }).waitFor();
    await preview.getByRole("alert").filter({ hasText: "строка 37, столбец «Содержание CO2 в смеси, % об.»" }).waitFor();

    // The bad cell is the outlined one, in row 37's last column, and it is in sight: inside the
    // table's scrolled area and the browser's window, with no scrolling by the user.
    const bad = preview.locator("td[aria-invalid=true]");
    expect(await bad.count()).toBe(1);
    expect(await bad.innerText()).toBe("40");
    expect(await preview.locator("tr[aria-invalid=true] td").first().innerText()).toBe("37");
    await expect
      .poll(() =>
        bad.evaluate((cell) => {
          const r = cell.getBoundingClientRect();
          const body = cell.closest(".ant-table-body")?.getBoundingClientRect();
          const inside = (outer: { left: number; right: number; top: number; bottom: number }) =>
            r.left >= outer.left - 1 && r.right <= outer.right + 1 && r.top >= outer.top - 1 && r.bottom <= outer.bottom + 1;
          return body !== undefined && inside(body) && inside({ left: 0, top: 0, right: innerWidth, bottom: innerHeight });
        }),
      )
      .toBe(true);
    // The preview spans the dialog, not half of it.
    const widths = await dialog().evaluate((d) => ({
      dialog: d.querySelector(".ant-modal-body")?.getBoundingClientRect().width ?? 0,
      preview: d.querySelector("[data-testid=upload-preview]")?.getBoundingClientRect().width ?? 0,
    }));
    expect(widths.preview).toBeGreaterThan(widths.dialog * 0.9);
    await dialog().getByRole("button", { name: "Отмена" }).click();
  });
});
