// The sensitivity screen's tornado chart (tornado.ts), with the inputs' 95 % intervals read from
// the dictionaries an administrator keeps: coal production and methane abundance.
import { useMemo } from "react";
import { Chart } from "../charts/Chart";
import { useDictionaries } from "../../api/calculations";
import { tornadoFigure, type SensitivityElement, type TornadoInput } from "./tornado";

const DICTIONARIES = ["get_activity_uncertainty", "get_methane_abundance"] as const;
/** The production entry and the mean underground abundance (200–400 m) of the dictionaries. */
const PRODUCTION = 1;
const UNDERGROUND_MEAN = 2;

export function Tornado({ element, height }: { element: SensitivityElement; height: number }) {
  const dictionaries = useDictionaries(DICTIONARIES);
  const figure = useMemo(() => {
    if (!dictionaries.data) return undefined;
    const production = dictionaries.data.get_activity_uncertainty.results.find((e) => e.id === PRODUCTION)?.uncertainty?.u;
    const abundance = dictionaries.data.get_methane_abundance.results.find((e) => e.id === UNDERGROUND_MEAN)?.uncertainty?.ef;
    const inputs: TornadoInput[] = [
      ...(production ? [{ label: "Добыча угля", coefficient: "sn_volume" as const, ...production }] : []),
      ...(abundance ? [{ label: "Относительная метанообильность", coefficient: "sn_methan" as const, ...abundance }] : []),
    ];
    return tornadoFigure(element, inputs);
  }, [dictionaries.data, element]);
  if (!figure) return null;
  return (
    <Chart figure={figure} height={Math.max(height, (figure.layout.height as number) ?? height)} testId={`tornado-chart-${element.id}`} />
  );
}
