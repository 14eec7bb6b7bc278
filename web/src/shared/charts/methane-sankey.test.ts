import { describe, expect, it } from "vitest";
import { methaneSankeyFigure, POST_MINING_LABEL } from "./methane-sankey";

type Trace = { type: string; node: { label: string[] }; link: { source: number[]; target: number[]; value: number[] } };

const row = {
  facility: "f1",
  facility_name: "Шахта",
  released_t: 29_701.1,
  destroyed_t: 8011.1904,
  emitted_t: 21_689.9096,
  gross_t: 29_701.1,
  net_t: 0,
  flared_t: 8016,
  used_t: 0,
  vented_t: 21_685.1,
  netted_t: 8011.1904,
};

/** What flows into the node whose label starts with `name`. */
const into = (trace: Trace, name: string) =>
  trace.link.value.filter((_, i) => trace.node.label[trace.link.target[i]].startsWith(`${name}<br>`)).reduce((s, v) => s + v, 0);

describe("the methane balance's Sankey (D17)", () => {
  it("drains to the flare and vents the rest; the flare's slip and the vented gas are what is emitted", () => {
    const trace = methaneSankeyFigure(row).data[0] as unknown as Trace;
    expect(trace.type).toBe("sankey");
    expect(into(trace, "Выбросы в атмосферу")).toBeCloseTo(row.emitted_t, 9);
    expect(into(trace, "Уничтожено")).toBeCloseTo(row.destroyed_t, 9);
    expect(into(trace, "Сожжено на факелах")).toBe(8016);
    expect(trace.link.value.every((v) => v > 0)).toBe(true);
  });

  it("takes the flares' slip from the balance: what a boiler left unburnt is vented gas, counted once", () => {
    // 1 000 t gross; flares sent 100 t and let slip 2 t, a boiler sent 50 t and burnt 49,75 t.
    const withBoiler = {
      ...row,
      released_t: 1000,
      gross_t: 1000,
      flared_t: 100,
      used_t: 50,
      destroyed_t: 147.75,
      slip_t: 2,
      netted_t: 149.75,
      vented_t: 850.25,
      emitted_t: 852.25,
    };
    const trace = methaneSankeyFigure(withBoiler).data[0] as unknown as Trace;
    expect(into(trace, "Выбросы в атмосферу")).toBeCloseTo(withBoiler.emitted_t, 9);
    expect(into(trace, "Уничтожено")).toBeCloseTo(withBoiler.destroyed_t, 9);
    expect(into(trace, "Выброшено без сжигания")).toBeCloseTo(withBoiler.vented_t, 9);
  });

  it("writes each node's figure in its label, in Russian format", () => {
    const labels = (methaneSankeyFigure(row).data[0] as unknown as Trace).node.label;
    expect(labels).toContain("Сожжено на факелах<br>8\u00a0016,00 т");
    expect(labels).toContain("Уничтожено<br>8\u00a0011,19 т");
  });

  it("draws post-mining methane into the atmosphere", () => {
    const withPost = { ...row, post_mining_t: 1200, released_t: row.released_t + 1200, emitted_t: row.emitted_t + 1200 };
    const trace = methaneSankeyFigure(withPost).data[0] as unknown as Trace;
    expect(trace.node.label).toContain(`${POST_MINING_LABEL}<br>1\u00a0200,00 т`);
    expect(into(trace, "Выбросы в атмосферу")).toBeCloseTo(withPost.emitted_t, 9);
  });

  it("writes a point's name as text, never markup", () => {
    const streams = [{ point: "s", name: "<b>Ствол</b>", kind: "ventilation_shaft" as const, route: "atmosphere" as const, t: 100 }];
    const labels = (methaneSankeyFigure({ ...row, flared_t: 0, destroyed_t: 0, streams }).data[0] as unknown as Trace).node.label;
    expect(labels).toContain("&lt;b&gt;Ствол&lt;/b&gt;<br>100,00 т");
  });

  it("leaves the top margin to the mode bar", () => {
    expect(methaneSankeyFigure(row).layout.margin?.t).toBeGreaterThanOrEqual(32);
  });

  // at 390 px four columns of names ran into each other.
  it("numbers its nodes on a phone and names them with their figures in the legend, the drawn ones only", () => {
    const { data, legend } = methaneSankeyFigure(row, true);
    const trace = data[0] as unknown as Trace;
    expect(legend?.map((item) => item.replace(/\s/g, " "))).toEqual([
      "1. Вентиляция — 21 685,10 т",
      "2. Дегазация — 8 016,00 т",
      "3. Сожжено на факелах — 8 016,00 т",
      "4. Выброшено без сжигания — 21 685,10 т",
      "5. Выбросы в атмосферу — 21 689,91 т",
      "6. Уничтожено — 8 011,19 т",
    ]);
    // «Утилизировано» carries nothing: no number, no line.
    expect(trace.node.label).toEqual(["1", "2", "3", "", "4", "5", "6"]);
    expect(methaneSankeyFigure(row).legend).toBeUndefined();
  });
});
