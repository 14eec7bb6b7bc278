// @vitest-environment happy-dom
// «Снижение выбросов» (D47–D55): the company's assessments listed with their reduction and NPV; a new
// assessment's drainage stream (40 m³/min at 35 %, section 11.4's case (a)) and prices typed key by key
// («6 000», «0,12») give the live preview the core computes in the page: the gas engine's ER, NPV and
// LAC of the worked example (tests/fixtures/abatement); saving sends that request with the name and the
// numbers as numbers, and a required price left empty is named instead of a preview.
// The page is opened for its list, a new assessment opened from it and one saved (listed first, then
// leading to a climate project); a price left empty and a stored assessment's months render the editor.
// No test here asserts on a chart (the MACC's and the tornados' figures are abatement.ts's; the browser
// tier sees them drawn): each screen is rendered inside ChartsUndrawn, plotly neither loaded nor drawn.
import { readFileSync } from "node:fs";
import type { ReactNode } from "react";
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import type { AbatementVectors } from "../../../../tests/support/abatement-vectors";
import { closeApp, leftFor, openPage, setField, type OpenApp } from "../../testing/render-app";
import type { ContractApi } from "../../testing/contract-api";
import { referenceDictionary, storedAssessment } from "../../testing/fixtures";
import type { Assessment, AssessmentBody, AssessmentSummary } from "./api";
import { ChartsUndrawn } from "../../shared/charts/Chart";
import Editor, { StoredEditor } from "./AbatementEditor";
import AbatementPage from "./AbatementPage";

let app: OpenApp;
const undrawn = (screen: ReactNode) => <ChartsUndrawn>{screen}</ChartsUndrawn>;

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

const AT = "2026-03-01T03:00:00.000Z";
const STORED: AssessmentSummary = {
  id: "a1",
  name: "Распадская: дегазация и ВМП",
  year: 2025,
  archived: false,
  updated_at: AT,
  version: 2,
  methodology_version: "2026.6",
  streams: 3,
  er_t_co2e: 575720.96,
  npv_rub: 117712345.4,
};
/** Section 11.4's case (a): the drainage stream and the prices, and what the gas engine gives (read
 *  by path: happy-dom's import.meta.url is not a file URL, so tests/support's loader fails here). */
const abatementVectors: AbatementVectors = JSON.parse(
  readFileSync(`${import.meta.dirname}/../../../../tests/fixtures/abatement/section-11-vectors.json`, "utf8"),
);
const PARAMS = abatementVectors.abatement_params;
const ENGINE = abatementVectors.abatement_options.find((o) => o.case === "a" && o.option_code === "GAS_ENGINE_CHP")!;

/** The thin space and no-break space of Russian grouping read as plain spaces. */
const text = (element: Element) => (element.textContent ?? "").replace(/[\s\u00a0\u202f]/g, " ");

/** The figure a plan's line shows in bold, read back the Russian way. */
const shownNumber = (line: Element) => Number(text(line.querySelector("b")!).replace(/ /g, "").replace(",", "."));

/** The company's assessments as the server keeps them, a new one stored by the page's create. */
function abatementServer(api: ContractApi) {
  const list: AssessmentSummary[] = [STORED];
  const stored = new Map<string, Assessment>();
  api
    .on("listAbatementAssessments", () => ({ results: list, count: list.length }))
    .on("getDictionary", ({ params }) => referenceDictionary(params.name))
    .on("inventoryTrendSettings", { base_year: null, significance_pct: 5, targets: [], version: 0, base_year_check: null })
    .on("getAbatementAssessment", ({ params }) => stored.get(params.id))
    .on("createAbatementAssessment", async ({ body }) => {
      const { name, year, ...input } = body as AssessmentBody;
      // The body's displaces_grid may be true/false; the stored input's is the same field.
      const made = await storedAssessment("a2", name, input, AT, { year: year ?? null });
      stored.set(made.id, made);
      list.unshift({
        ...STORED,
        id: made.id,
        name,
        year: made.year,
        version: 1,
        streams: 1,
        er_t_co2e: made.result.totals.er_t_co2e,
        npv_rub: made.result.totals.npv_rub,
      });
      return made;
    });
}

const openAbatement = () => {
  app = openPage({ path: "/abatement", page: undrawn(<AbatementPage />) }, abatementServer);
};

const field = (label: RegExp) => within(screen.getByTestId("abatement-editor")).getByLabelText(label);

/** Gives the new assessment's name, then case (a)'s stream and the prices but those left out: «6 000»
 *  and «0,12» typed key by key (a Russian number's space and comma are what the page reads), the others
 *  set at once (setField; each key typed renders the editor and computes the preview again). */
async function typeCaseA(name: string, leaveOut: string[] = []) {
  await screen.findByTestId("abatement-editor");
  await setField(app.user, field(/^Название$/), name);
  await setField(app.user, field(/^Расход смеси/), "40");
  await setField(app.user, field(/^Концентрация CH4/), "35");
  const prices: [RegExp, string, string][] = [
    [/^Коэффициент выбросов энергосистемы/, "0,5", "ef_grid_t_per_mwh"],
    [/^Цена электроэнергии/, "6 000", "price_el_rub_per_mwh"],
    [/^Цена тепла/, "1 500", "price_heat_rub_per_mwh"],
    [/^Цена углеродной единицы/, "1 000", "price_carbon_unit_rub"],
    [/^Ставка дисконтирования/, "0,12", "discount_rate"],
    [/^Срок проекта/, "10", "lifetime_yr"],
  ];
  const keyByKey = ["price_el_rub_per_mwh", "discount_rate"];
  for (const [label, typed, key] of prices) {
    if (leaveOut.includes(key)) continue;
    if (keyByKey.includes(key)) await app.user.type(field(label), typed);
    else await setField(app.user, field(label), typed);
  }
}

/** A figure of the engine's row: its unrounded value (data-value) and the text shown. */
async function engineFigure(key: string) {
  const cell = await waitFor(() => {
    const found = document.querySelector<HTMLElement>(`[data-testid^="${key}-"][data-testid$="-GAS_ENGINE_CHP"]`);
    expect(found).not.toBeNull();
    return found!;
  });
  return { value: Number(cell.dataset.value), shown: text(cell) };
}

it("lists the company's assessments with their reduction and NPV, and opens a new one empty", async () => {
  openAbatement();
  const row = (await screen.findByText(STORED.name)).closest("tr")!;
  expect(text(row)).toContain("2025");
  expect(text(row)).toContain("575 721,0");
  expect(text(row)).toContain("117 712 345");
  expect(text(row)).toContain("В архив");
  expect(screen.queryByTestId("abatement-editor")).toBeNull();

  await app.user.click(screen.getByText("Новая оценка").closest("button")!);
  const editor = await screen.findByTestId("abatement-editor");
  expect(within(editor).getByText("Новая оценка", { selector: ".ant-card-head-title" })).toBeTruthy();
  expect((field(/^Название$/) as HTMLInputElement).value).toBe("");
  expect(within(editor).getByText("Сохранить оценку").closest("button")!.disabled).toBe(true);
  expect(within(editor).getByText("Чтобы сохранить, дайте оценке название")).toBeTruthy();
});

it("previews case (a)'s gas engine from the stream and prices typed key by key, and saves the request it computed", async () => {
  openAbatement();
  await screen.findByText(STORED.name);
  await app.user.click(screen.getByText("Новая оценка").closest("button")!);
  await typeCaseA("Дегазация 1");

  // The heat the mine can use has no default: the engine asks for it, its row opened to type it.
  const asking = await screen.findByTestId(/^missing-.*-GAS_ENGINE_CHP$/);
  expect(text(asking)).toBe(
    "Экономика не рассчитана, укажите: доля тепла, которую шахта или потребитель могут использовать (раскройте строку)",
  );
  expect((await engineFigure("npv")).shown).toBe("—");
  const heat = document.querySelector<HTMLInputElement>('input[id^="own-"][id$="-GAS_ENGINE_CHP-heat_used_share"]')!;
  await setField(app.user, heat, "0,5");
  await waitFor(() => expect(screen.queryByTestId(/^missing-.*-GAS_ENGINE_CHP$/)).toBeNull());

  // The worked example's figures (to its rel_tol), computed by the core in the page.
  const er = await engineFigure("er");
  expect(er.value).toBeCloseTo(Number(ENGINE.er_t_co2e), -1);
  expect(Math.abs(er.value / Number(ENGINE.er_t_co2e) - 1)).toBeLessThan(PARAMS.rel_tol);
  const npv = await engineFigure("npv");
  expect(Math.abs(npv.value / Number(ENGINE.npv_rub) - 1)).toBeLessThan(PARAMS.rel_tol);
  const lac = await engineFigure("lac");
  expect(Math.abs(lac.value / Number(ENGINE.lac_rub_per_t) - 1)).toBeLessThan(PARAMS.rel_tol);
  expect(lac.shown).toBe("-144,38");
  // The plan takes the lowest LAC of the stream's options (D55): the engine's, since the boiler waits
  // for the heat the mine can use (it sold all its heat and won), 111 475 t CO2-eq. a year and
  // an NPV of 720 801 000 ₽ (11.4).
  expect(text(screen.getByTestId(/^missing-.*-BOILER$/))).toContain("доля тепла, которую шахта или потребитель могут использовать");
  await waitFor(() => expect(text(screen.getByTestId("plan-er"))).toContain("Сокращение: 111 475,"));
  const engineRow = document.querySelector(`[data-testid^="er-"][data-testid$="-GAS_ENGINE_CHP"]`)!.closest("tr")!;
  expect((within(engineRow).getByRole("radio") as HTMLInputElement).checked).toBe(true);
  await waitFor(() => expect(text(screen.getByTestId("plan-er"))).toContain("Сокращение: 111 475,"));
  expect(Math.abs(shownNumber(screen.getByTestId("plan-er")) / Number(ENGINE.er_t_co2e) - 1)).toBeLessThan(PARAMS.rel_tol);
  expect(text(screen.getByTestId("plan-npv"))).toMatch(/^ЧДД: 720 80\d \d{3} ₽$/);
  expect(Math.abs(shownNumber(screen.getByTestId("plan-npv")) / Number(ENGINE.npv_rub) - 1)).toBeLessThan(PARAMS.rel_tol);

  const saveButton = screen.getByText("Сохранить оценку").closest("button")!;
  await waitFor(() => expect(saveButton.disabled).toBe(false));
  await app.user.click(saveButton);
  await waitFor(() => expect(app.api.calls("createAbatementAssessment")).toHaveLength(1));
  const body = app.api.calls("createAbatementAssessment")[0].body as AssessmentBody;
  expect(body).toMatchObject({
    name: "Дегазация 1",
    year: null,
    params: {
      ef_grid_t_per_mwh: 0.5,
      price_el_rub_per_mwh: 6000,
      price_heat_rub_per_mwh: 1500,
      price_carbon_unit_rub: 1000,
      discount_rate: 0.12,
      lifetime_yr: 10,
    },
  });
  expect(body.streams).toHaveLength(1);
  // The default choice (the lowest LAC) is the server's too: nothing picked by hand.
  expect(body.chosen).toEqual({});
  expect(body.streams[0]).toMatchObject({ kind: "drainage", name: "", q_mix_m3_min: 40, c_ch4_pct: 35 });
  expect(body.params.gwp_ch4).toBeUndefined();
  expect(body.params.price_gas_rub_per_1000m3).toBeUndefined();
  expect(body.overrides).toEqual({ [body.streams[0].code]: { GAS_ENGINE_CHP: { heat_used_share: 0.5 } } });

  // Saved, the page shows the stored assessment and lists it first, the numbers as they were typed.
  await screen.findByText("Оценка «Дегазация 1», версия 1");
  expect((field(/^Цена электроэнергии/) as HTMLInputElement).value).toBe("6 000");
  expect((field(/^Цена углеродной единицы/) as HTMLInputElement).value).toBe("1 000");
  const saved = (await screen.findByText("Дегазация 1", { selector: "tr button span" })).closest("tr")!;
  expect(text(saved)).toContain("111 475");

  // the stored choice, a gas engine, starts a climate project with the stream.
  const start = await screen.findByTestId(`climate-project-${body.streams[0].code}`);
  expect(text(start)).toBe("Создать климатический проект");
  await app.user.click(start);
  await waitFor(() => expect(leftFor()).toBe(`/climate-projects?new=1&assessment=a2&stream=${encodeURIComponent(body.streams[0].code)}`));
});

it("names a required price left empty instead of previewing", async () => {
  app = openPage({ path: "/abatement?new=1", route: "/abatement", page: undrawn(<Editor />) }, abatementServer);
  await typeCaseA("Без цены", ["price_carbon_unit_rub"]);
  const problem = await screen.findByTestId("abatement-problem");
  expect(text(problem)).toContain("Не задано: цена углеродной единицы, ₽");
  expect(screen.queryByTestId("abatement-results")).toBeNull();
  expect(screen.getByText("Сохранить оценку").closest("button")!.disabled).toBe(true);

  await setField(app.user, field(/^Цена углеродной единицы/), "1 000");
  await screen.findByTestId("abatement-results");
  expect(screen.queryByTestId("abatement-problem")).toBeNull();
});

it("names the months a stream from the inventory was measured in, and says fewer than twelve are in", async () => {
  const input = {
    streams: [
      {
        code: "du1",
        kind: "drainage" as const,
        name: "ДУ-1",
        point: "p1",
        c_ch4_pct: 42,
        m_ch4_t: 3000,
        m_ch4_year_share: 1464 / 8760,
        m_ch4_hours: 1464,
      },
    ],
    params: { ...abatementVectors.abatement_params, rel_tol: undefined, abs_tol: undefined },
  };
  const stored = await storedAssessment("a3", "Осенняя 2026", input, AT, { year: 2026 });
  app = openPage({ path: "/abatement?id=a3", route: "/abatement", page: undrawn(<StoredEditor id="a3" />) }, (api) =>
    api
      .on("getDictionary", ({ params }) => referenceDictionary(params.name))
      .on("inventoryTrendSettings", { base_year: null, significance_pct: 5, targets: [], version: 0, base_year_check: null })
      .on("getAbatementAssessment", stored)
      .on("abatementStreams", {
        results: [
          {
            point: "p1",
            name: "ДУ-1",
            kind: "drainage",
            facility: null,
            facility_name: "Шахта",
            t: 3000,
            to_air_t: 3000,
            months: ["2026-10", "2026-11"],
            hours: 1464,
            year_hours: 8760,
          },
        ],
        count: 1,
      }),
  );
  const months = await screen.findByTestId("stream-0-months");
  expect(text(months)).toBe(
    "Метан из инвентаризации: измерения за 2 из 12 месяцев (10.2026, 11.2026): метан пересчитан на год по их 1 464 ч из 8 760 ч года, дебит — средний за эти месяцы.",
  );
  // Those months' flow in calendar time, treated over the engine's 8 000 h a year:
  // 3 000 t × 8 000 / 1 464 — and the gas engine offered.
  await waitFor(() => expect(document.querySelector('[data-testid="m-du1-GAS_ENGINE_CHP"]')).not.toBeNull());
  const m = document.querySelector<HTMLElement>('[data-testid="m-du1-GAS_ENGINE_CHP"]')!;
  expect(Number(m.dataset.value)).toBeCloseTo((3000 * 8000) / 1464, 6);
});
