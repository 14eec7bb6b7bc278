import { describe, expect, it } from "vitest";
import type { Project } from "@server/contract";
import type { ProjectGraphs } from "@server/contract";
import {
  CHART_HEIGHT,
  forecastChart,
  labelWidth,
  methaneFateChart,
  MODEBAR_MARGIN,
  monthlyCh4Chart,
  projectCharts,
  withModeBarRoom,
  MAX_LABEL_LINES,
  NARROW_EXTRA_HEIGHT,
  narrowLayout,
  openMiningChart,
  openMiningMethaneChart,
  plotlyText,
  tickLabel,
  undergroundChart,
  wrapLabel,
} from "./charts";

const project = { id: "p1", name: "Шахта", reporting_year: 2025 } as Project;
type Underground = Omit<ProjectGraphs["underground"][number], "subtracted_ch4"> & { subtracted_ch4?: number };
const graphs = (over: Partial<Omit<ProjectGraphs, "underground">> & { underground?: Underground[] } = {}): ProjectGraphs => ({
  project,
  open_mining_co2: [],
  open_mining_ch4: [],
  monthly_ch4: [],
  regres_methane: [],
  totals: { gross_t_co2e: 0, subtracted_t_co2e: 0, t_co2e: 0, gwp: "AR4" },
  not_counted: null,
  left_out: [],
  ...over,
  underground: (over.underground ?? []).map((i) => ({ subtracted_ch4: 0, ...i })),
});

type Trace = { name: string; x: unknown[]; y: unknown[] };

describe("underground chart", () => {
  it("draws the methane left after the facility-year's netting beside the gross figure, only when something is netted (D26)", () => {
    const netted = undergroundChart(
      graphs({ underground: [{ id: "a", name: "Дегазация", res_co2: 1, res_ch4: 100, subtracted_ch4: 40 }] }),
    );
    const traces = netted.data as unknown as Trace[];
    expect(traces.map((t) => t.name)).toEqual([
      "Выбросы CO2 (Подземная добыча)",
      "Выбросы CH4 (Подземная добыча)",
      "Выбросы CH4 за вычетом уничтоженного (факел, котельная)",
    ]);
    expect(traces[2].y).toEqual([60]);
    expect(undergroundChart(graphs({ underground: [{ id: "a", name: "Ствол", res_co2: 1, res_ch4: 2 }] })).data).toHaveLength(2);
  });

  it("draws one group per calculation with the CO2 and CH4 series, labelled «Расчет: name»", () => {
    const figure = undergroundChart(
      graphs({
        underground: [
          { id: "a", name: "Ствол", res_co2: 10, res_ch4: 20 },
          { id: "b", name: "Ствол", res_co2: 0, res_ch4: 5 },
        ],
      }),
    );
    const traces = figure.data as Trace[];
    expect(traces.map((t) => t.name)).toEqual(["Выбросы CO2 (Подземная добыча)", "Выбросы CH4 (Подземная добыча)"]);
    expect(traces[0]).toMatchObject({ x: ["a", "b"], y: [10, 0] });
    expect(traces[1]).toMatchObject({ y: [20, 5] });
    // Same names stay two groups: categories are ids, labels are the names.
    expect(figure.layout.xaxis).toMatchObject({ tickvals: ["a", "b"], ticktext: ["Расчет: Ствол", "Расчет: Ствол"] });
    expect(figure.layout).toMatchObject({ height: CHART_HEIGHT, barmode: "group", showlegend: true });
  });

  it("says so when there is nothing to draw", () => {
    expect(undergroundChart(graphs()).layout.annotations?.[0]).toMatchObject({ text: "Нет расчетов" });
  });
});

describe("open-mining chart", () => {
  it("splits by ef compared as a 6-decimal string and leaves other ef out", () => {
    const figure = openMiningChart(
      graphs({
        open_mining_co2: [
          { id: "d", name: "Дизель", ef: 3.149, res_co2: 31.49 },
          { id: "f", name: "Бензин", ef: 3.026, res_co2: 60.52 },
          { id: "x", name: "Другое", ef: 2.5, res_co2: 1 },
          { id: "s", name: "Строкой", ef: "3.149000" as unknown as number, res_co2: 3 },
        ],
      }),
    );
    const traces = figure.data as Trace[];
    expect(traces.map((t) => t.name)).toEqual(["Выбросы CO2 (Дизель)", "Выбросы CO2 (Топливо)"]);
    expect(traces[0]).toMatchObject({ x: ["d", "s"], y: [31.49, 3] });
    expect(traces[1]).toMatchObject({ x: ["f"], y: [60.52] });
    expect((figure.layout.xaxis as { ticktext: string[] }).ticktext).toEqual(["Расчет: Дизель", "Расчет: Строкой", "Расчет: Бензин"]);
  });
});

describe("forecast chart", () => {
  it("plots results by day with the 1 % line, y 0..2 step 0.2", () => {
    const figure = forecastChart(
      graphs({
        regres_methane: [
          {
            id: "r",
            name: "Лава",
            points: [
              { day: 1, result: 0.5 },
              { day: 2, result: 1.2 },
              { day: 3, result: 0.9 },
            ],
          },
        ],
      }),
    );
    const traces = figure.data as Trace[];
    expect(figure.title).toBe("Временной ряд");
    expect(traces[0]).toMatchObject({ name: "Расчет: Лава", x: [1, 2, 3], y: [0.5, 1.2, 0.9] });
    expect(traces[1]).toMatchObject({ name: "Граница 1 процента", x: [1, 3], y: [1, 1] });
    expect(figure.layout.yaxis).toMatchObject({ range: [0, 2], dtick: 0.2, title: { text: "Проценты (%)" } });
    expect(figure.layout.xaxis).toMatchObject({ title: { text: "Дни" } });
  });

  it("shows only the reference line when there is no forecast", () => {
    const traces = forecastChart(graphs()).data as Trace[];
    expect(traces).toHaveLength(1);
    expect(traces[0]).toMatchObject({ name: "Граница 1 процента", y: [1, 1] });
  });
});

describe("charts on a phone", () => {
  it("wraps a label between words, a long word on a line of its own", () => {
    expect(wrapLabel("Расчет: Дегазационная установка северного крыла", 16)).toBe(
      "Расчет:<br>Дегазационная<br>установка<br>северного крыла",
    );
    expect(wrapLabel("Расчет: Ствол", 16)).toBe("Расчет: Ствол");
    expect(wrapLabel("Расчет: Сверхдлинноеназваниевыработки", 16)).toBe("Расчет:<br>Сверхдлинноеназваниевыработки");
  });

  it("puts the legend under the plot across the whole figure, labels level and wrapped, the chart taller", () => {
    const wide = undergroundChart(graphs({ underground: [{ id: "a", name: "Вентиляционный ствол", res_co2: 1, res_ch4: 2 }] })).layout;
    const narrow = narrowLayout(wide);
    expect(narrow.legend).toMatchObject({ orientation: "h", xref: "container", x: 0, yref: "container", y: 0, yanchor: "bottom" });
    expect(narrow.xaxis).toMatchObject({ tickvals: ["a"], ticktext: ["Расчет:<br>Вентиляционный<br>ствол"], tickangle: 0 });
    expect(narrow.height).toBe(CHART_HEIGHT + NARROW_EXTRA_HEIGHT);
    expect(narrow).toMatchObject({ barmode: "group", showlegend: true, separators: ", " });
    // The figure itself is left as it is (the wide layout).
    expect(wide.xaxis).toMatchObject({ ticktext: ["Расчет: Вентиляционный ствол"] });
  });

  it("leaves a numeric axis alone", () => {
    const wide = forecastChart(graphs()).layout;
    expect(narrowLayout(wide).xaxis).toEqual(wide.xaxis);
  });
});

describe("user text is never markup", () => {
  // Plotly reads a subset of HTML in trace names (legend, hover), tick labels and titles: a link,
  // bold, a line break, entities. A calculation's name must show as the characters typed.
  const LINK = '<a href="https://evil.example">Подробнее</a>';
  const SHOWN = '&lt;a href="https://evil.example"&gt;Подробнее&lt;/a&gt;';

  it("escapes & < > and nothing else", () => {
    expect(plotlyText(LINK)).toBe(SHOWN);
    expect(plotlyText("A&B <br> &lt; x>y")).toBe("A&amp;B &lt;br&gt; &amp;lt; x&gt;y");
    expect(plotlyText("Ствол \"№1\" 'юг'")).toBe("Ствол \"№1\" 'юг'");
  });

  it("in the category labels of both bar charts, and of the forecast's legend", () => {
    const under = undergroundChart(graphs({ underground: [{ id: "a", name: LINK, res_co2: 1, res_ch4: 2 }] }));
    expect((under.layout.xaxis as { ticktext: string[] }).ticktext).toEqual([`Расчет: ${SHOWN}`]);
    const open = openMiningChart(graphs({ open_mining_co2: [{ id: "d", name: "<b>&amp;</b>", ef: 3.149, res_co2: 1 }] }));
    expect((open.layout.xaxis as { ticktext: string[] }).ticktext).toEqual(["Расчет: &lt;b&gt;&amp;amp;&lt;/b&gt;"]);
    const forecast = forecastChart(graphs({ regres_methane: [{ id: "r", name: LINK, points: [{ day: 1, result: 0.5 }] }] }));
    expect((forecast.data as Trace[])[0].name).toBe(`Расчет: ${SHOWN}`);
    // No trace, label or title of any figure carries a tag or an entity it did not escape.
    for (const figure of [under, open, forecast])
      expect(JSON.stringify([figure.data, figure.layout]).replaceAll("<br>", "").replaceAll("<extra></extra>", "")).not.toMatch(/[<>]/);
  });

  it("stays escaped when a label is wrapped for a phone, lines measured in shown characters", () => {
    const wide = undergroundChart(graphs({ underground: [{ id: "a", name: LINK, res_co2: 1, res_ch4: 2 }] })).layout;
    const ticktext = (narrowLayout(wide).xaxis as { ticktext: string[] }).ticktext[0];
    expect(ticktext).toBe('Расчет: &lt;a<br>href="https://evil.example"&gt;Подробнее&lt;/a&gt;');
    expect(wrapLabel("&lt;&lt;&lt;&lt; &gt;&gt;&gt;&gt;", 9)).toBe("&lt;&lt;&lt;&lt; &gt;&gt;&gt;&gt;");
  });
});

describe("long names", () => {
  const LONG = "Вентиляционный ствол № 2 северного крыла шахты «Распадская-Коксовая», пласт 7-7а";

  it("are wrapped level into lines by the category's share of the row, cut to three lines with «…»", () => {
    expect(labelWidth(1)).toBe(53);
    expect(labelWidth(4)).toBe(13);
    expect(labelWidth(40)).toBe(6);
    expect(tickLabel("Ствол", 15)).toBe("Расчет: Ствол");
    expect(tickLabel(LONG, 15)).toBe("Расчет:<br>Вентиляционный<br>ствол № 2…");
    expect(tickLabel("Сверхдлинноеназваниевыработки", 15)).toBe("Расчет:<br>Сверхдлинноена…");
    expect(tickLabel("<b>&</b> a b c d e f g h i j k l m n o p", 8)).toBe("Расчет:<br>&lt;b&gt;&amp;&lt;/b&gt;<br>a b c d…");
    const items = ["a", "b", "c", "d"].map((id) => ({ id, name: LONG, res_co2: 1, res_ch4: 2 }));
    const figure = undergroundChart(graphs({ underground: items }));
    const ticks = (figure.layout.xaxis as { ticktext: string[] }).ticktext;
    for (const tick of ticks) expect(tick.split("<br>").length).toBeLessThanOrEqual(MAX_LABEL_LINES);
    expect(figure.layout.xaxis).toMatchObject({ tickangle: 0 });
  });

  it("show whole in the hover with the value in Russian format, never the category's id", () => {
    const figure = undergroundChart(graphs({ underground: [{ id: "a", name: LONG, res_co2: 1, res_ch4: 2 }] }));
    expect(figure.data[0]).toMatchObject({
      customdata: [wrapLabel(`Расчет: ${plotlyText(LONG)}`, 48)],
      hovertemplate: "%{customdata}<br>%{fullData.name}: %{y:,.2f} т<extra></extra>",
    });
    expect((figure.data[0] as { customdata: string[] }).customdata[0].split("<br>").every((line) => line.length <= 48)).toBe(true);
    expect(figure.layout).toMatchObject({ separators: ", ", yaxis: { tickformat: ",~f" } });
  });
});

describe("the open pit's methane chart", () => {
  it("draws each counted open_mining_ch4 calculation's CH4 in t", () => {
    const figure = openMiningMethaneChart(graphs({ open_mining_ch4: [{ id: "m", name: "Разрез", res_ch4: 804 }] }));
    expect(figure.title).toBe("Выбросы CH4 при открытой добыче");
    expect(figure.data).toMatchObject([{ name: "Выбросы CH4 (Открытая добыча)", x: ["m"], y: [804] }]);
    expect(figure.layout.yaxis).toMatchObject({ title: { text: "т CH4" } });
    expect(openMiningMethaneChart(graphs()).layout.annotations?.[0]).toMatchObject({ text: "Нет расчетов" });
  });
});

const balance = {
  facility: "f1",
  facility_name: "Шахта «Северная»",
  released_t: 1000,
  destroyed_t: 300,
  emitted_t: 700,
  gross_t: 1000,
  net_t: 0,
  flared_t: 300,
  used_t: 0,
  vented_t: 650,
  netted_t: 300,
  post_mining_t: 50,
  ventilation_t: 600,
  drained_t: 350,
  drained_vented_t: 50,
};

describe("the charts a project shows follow what it holds", () => {
  const titles = (g: ProjectGraphs) => projectCharts(g).map((c) => c.figure.title);

  it("draws a mine's months by point, its underground bars, its drained and destroyed methane and its balance, and no open-pit chart", () => {
    const mine = graphs({
      underground: [{ id: "a", name: "Ствол № 1", res_co2: 1, res_ch4: 2 }],
      monthly_ch4: [{ point: "s1", name: "Ствол № 1", kind: "ventilation_shaft", months: [{ month: "2025-01", t: 2 }] }],
      balance,
    });
    expect(titles(mine)).toEqual([
      "Выделение CH4 по месяцам и источникам",
      "Выбросы при подземной добыче",
      "Каптировано, уничтожено и выброшено CH4",
      "Баланс метана — Шахта «Северная», 2025, т CH4",
    ]);
    expect(projectCharts(mine).find((c) => c.figure.title.startsWith("Баланс"))?.strict).toBe(true);
  });

  it("draws an open pit's own charts only, and nothing for a project without calculations", () => {
    const pit = graphs({
      open_mining_co2: [{ id: "d", name: "Самосвалы", ef: 3.149, res_co2: 5 }],
      open_mining_ch4: [{ id: "m", name: "Метан", res_ch4: 9 }],
    });
    expect(titles(pit)).toEqual(["Выбросы CO2 при открытой добыче", "Выбросы CH4 при открытой добыче"]);
    expect(projectCharts(graphs())).toEqual([]);
  });

  it("stacks each point's months, grouped in the legend by the point's kind", () => {
    const figure = monthlyCh4Chart(
      graphs({
        monthly_ch4: [
          { point: "d1", name: "ВДУ-1", kind: "drainage_station", months: [{ month: "2025-02", t: 5 }] },
          {
            point: "s1",
            name: "Ствол № 1",
            kind: "ventilation_shaft",
            months: [
              { month: "2025-01", t: 2 },
              { month: "2025-02", t: 3 },
            ],
          },
        ],
      }),
    );
    const traces = figure.data as unknown as Array<Trace & { legendgroup: string }>;
    expect(traces.map((t) => [t.name, t.legendgroup])).toEqual([
      ["ВДУ-1 (дегазация)", "drainage_station"],
      ["Ствол № 1 (вентиляция)", "ventilation_shaft"],
    ]);
    expect(figure.layout.barmode).toBe("stack");
    expect(figure.layout.xaxis?.ticktext).toEqual(["янв<br>2025", "фев<br>2025"]);
  });

  it("shows drained, destroyed and vented methane with post-mining, each bar with its figure", () => {
    const trace = methaneFateChart(balance, 2025).data[0] as unknown as Trace & { texttemplate: string };
    expect(trace.x).toEqual(["Вентиляция", "Каптировано", "Уничтожено", "Выброшено без сжигания", "После добычи"]);
    expect(trace.y).toEqual([600, 350, 300, 50, 50]);
    expect(trace.texttemplate).toBe("%{y:,.2f}");
  });
});

describe("the mode bar", () => {
  it("stands upright in a right margin of its own", () => {
    const layout = withModeBarRoom(undergroundChart(graphs()).layout);
    expect(layout.modebar?.orientation).toBe("v");
    expect(layout.margin?.r).toBe(MODEBAR_MARGIN);
  });
});
