// @vitest-environment happy-dom
// /dictionary «Справочники» (docs/user-guide.md): the 8 emission categories, 4 a page, each with its
// formula, document (a link that opens in a new tab), calculation type and status; a category's
// coefficient tables with value, unit, numbered source, uncertainty, version and date, as a freshly
// seeded server answers its dictionaries. Moved from tests/e2e/web-reference.test.ts.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, expect, it } from "vitest";
import { referenceDictionary, signedInUser } from "../../testing/fixtures";
import { closeApp, openPage, type OpenApp } from "../../testing/render-app";
import DictionaryPage from "./DictionaryPage";

let app: OpenApp;

// The page's lazy body, loaded once before the tests.
beforeAll(async () => {
  await import("./DictionaryContent");
});

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

function openDictionary(path = "/dictionary") {
  app = openPage({ path, route: "/dictionary", page: <DictionaryPage /> }, (api) =>
    api.on("getMe", signedInUser()).on("getDictionary", ({ params }) => referenceDictionary(params.name)),
  );
  return app;
}

const categoriesTable = () => screen.getByTestId("categories");
const categoryRows = () => [...categoriesTable().querySelectorAll<HTMLElement>(".ant-table-row")];
const cellsOf = (row: Element) => [...row.querySelectorAll("td")].map((cell) => cell.textContent ?? "");
/** The categories' first page, once drawn. */
const firstPage = async () =>
  within(await screen.findByTestId("categories")).findByText("Выбросы CO2 и CH4 из систем дегазации и вентиляции");
const coefficients = () => screen.getByTestId("coefficients");
/** The section of the coefficients titled `title`, once its rows are there. */
async function section(title: string) {
  const heading = await within(coefficients()).findByText(title, { selector: "h5" });
  const found = heading.closest("section")!;
  await waitFor(() => expect(found.querySelector(".ant-table-row")).not.toBeNull());
  return found;
}
const rowWith = (scope: Element, text: string) =>
  [...scope.querySelectorAll<HTMLElement>("tr")].find((row) => row.textContent?.includes(text) && row.querySelector("td"))!;

it("lists 4 categories on page 1 with formula, document, type and status", async () => {
  openDictionary();
  await firstPage();
  expect(categoryRows()).toHaveLength(4);
  const [first] = categoryRows();
  const cells = cellsOf(first);
  expect(cells[0]).toBe("Выбросы CO2 и CH4 из систем дегазации и вентиляции");
  expect(cells[1]).toContain("ECH4 = V × WCH4 × ρCH4 × 10⁻²");
  expect(cells[2]).toContain("Приказ Минприроды № 371");
  expect(cells[3]).toBe("Выбросы CO2 и CH4 из систем дегазации и вентиляции (подземная добыча)");
  expect(cells[4]).toBe("Активен");
  const link = within(first).getByRole("link", { name: "Приказ Минприроды № 371" });
  expect(link.getAttribute("target")).toBe("_blank");
  expect(link.getAttribute("rel")).toBe("noopener noreferrer");
  expect(link.getAttribute("href")).toMatch(/^https:\/\/www\.consultant\.ru\//);
  expect([...categoriesTable().querySelectorAll("td")].filter((cell) => cell.textContent?.includes("Активен"))).toHaveLength(4);
});

it("shows the other 4 categories on page 2 and goes back with «previous»", async () => {
  openDictionary();
  await firstPage();
  await app.user.click(categoriesTable().querySelector(".ant-pagination-item-2")!);
  await within(categoriesTable()).findByText("Несгоревший CH4 при сжигании на факельной установке");
  expect(categoryRows().map((row) => row.querySelector("td")?.textContent)).toEqual([
    "Выбросы CH4 при подземной добыче",
    "Несгоревший CH4 при сжигании на факельной установке",
    "Выбросы CO2 при сжигании метана и топлива в стационарных источниках",
    "Выбросы CO2 при сжигании метана на факельной установке",
  ]);
  const ipcc = within(categoryRows()[0]).getByRole("link", { name: "МГЭИК 2006, т. 2, гл. 4" });
  expect(ipcc.getAttribute("href")).toBe("https://www.ipcc-nggip.iges.or.jp/public/2006gl/");
  await app.user.click(categoriesTable().querySelector(".ant-pagination-prev button, .ant-pagination-prev")!);
  await firstPage();
});

it("opens the densities and contents of category 0 with units, sources, version and date", async () => {
  openDictionary();
  await app.user.click(cellsRowOf(await firstPage()));
  const density = await section("Плотность CO2 и CH4 по условиям измерения");
  // The item's name, version and date span its two rows (CO2, then CH4).
  const co2 = cellsOf(rowWith(density, "20 °C"));
  expect(co2[0]).toBe("20 °C, 101,325 кПа (стандартные условия, ГОСТ 2939-63)");
  expect(co2.slice(1, 4)).toEqual(["Плотность CO2, ρCO2", "1,8393", "кг/м³"]);
  // The source column refers to the table's numbered source list.
  expect(co2[4]).toBe("[1]");
  const sources = [...within(density).getByRole("list", { name: "Источники" }).querySelectorAll("li")].map((li) => li.textContent);
  // The corrected CO2 density at 15 °C cites the gas standard: a second source.
  expect(sources).toHaveLength(2);
  expect(sources[0]).toBe("Приказ Минприроды России № 371 от 27.05.2022, табл. 1.2");
  expect(sources[1]).toContain("ГОСТ 31369-2008");
  const co2At15 = cellsOf(rowWith(density, "15 °C"));
  expect(co2At15).toContain("1,8718");
  expect(co2At15).toContain("[2]");
  // Densities carry no uncertainty (taken as exact): «—»; then version and the date of Order 371.
  expect(co2.slice(5)).toEqual(["—", "1", "27.05.2022"]);
  const ch4Row = [...density.querySelectorAll("tr")].find((row) =>
    [...row.querySelectorAll("td")].some((td) => td.textContent === "0,668"),
  )!;
  const ch4 = cellsOf(ch4Row);
  expect(ch4.slice(0, 3)).toEqual(["Плотность CH4, ρCH4", "0,668", "кг/м³"]);
  expect(ch4[3]).toBe("[1]");
  await app.user.hover(within(density).getAllByText("[1]")[0]);
  await waitFor(() =>
    expect(
      screen.getAllByRole("tooltip").some((tip) => tip.textContent === "Приказ Минприроды России № 371 от 27.05.2022, табл. 1.2"),
    ).toBe(true),
  );
  const content = await section("Содержание CO2 и CH4 по видам смесей");
  const mixture = cellsOf(rowWith(content, "Газ дегазации угольных пластов"));
  expect(mixture.slice(1, 4)).toEqual(["Содержание CH4 в смеси, WCH4", "76", "% об."]);
});

it("opens the fuel coefficients of the open-mining CO2 category", async () => {
  openDictionary();
  await firstPage();
  await app.user.click(
    categoryRows()
      .find((row) => row.textContent?.includes("сжигания топлива техникой"))!
      .querySelector("td")!,
  );
  const table = await section("Коэффициент выбросов CO2 и плотность топлива (транспорт, открытые работы)");
  const winter = [...table.querySelectorAll("tr")].find(
    (row) => row.textContent?.includes("Плотность топлива") && [...row.querySelectorAll("td")].some((td) => td.textContent === "0,84"),
  )!;
  expect(cellsOf(winter)).toEqual(expect.arrayContaining(["0,84", "кг/л"]));
  within(table).getByText("Дизельное топливо зимнее");
  within(within(table).getByRole("list", { name: "Источники" })).getByText("Приказ Минприроды России № 371 от 27.05.2022, табл. 18.1");
});

/** The first cell of the row holding `element`: a click there opens the category. */
const cellsRowOf = (element: HTMLElement) => element.closest(".ant-table-row")!.querySelector("td")!;
