// Fills the registry the calculations screen reads (shared/calculationKindRegistry.ts) with the kinds other
// features own: the regression's forecast and the two file-based series. Their forms and results load
// when a dialog first needs them; the list's summaries come with the calculations page.
import { lazy } from "react";
import type { CalculationType } from "@core/registry";
import { registerCalculationKind, type KindFormProps } from "../shared/calculationKindRegistry";
import { forecastListSummary } from "../features/forecast/forecast";
import { fillingListSummary, isSeriesType, seriesLayout, sensitivityListSummary } from "../features/series/series";

const ForecastForm = lazy(() => import("../features/forecast/ForecastForm").then((m) => ({ default: m.ForecastForm })));
const ForecastResults = lazy(() => import("../features/forecast/ForecastResults").then((m) => ({ default: m.ForecastResults })));
const SeriesForm = lazy(() =>
  import("../features/series/SeriesForm").then((m) => ({
    default: (props: KindFormProps) => (isSeriesType(props.type) ? <m.SeriesForm {...props} type={props.type} /> : null),
  })),
);
const FillingBlanksResults = lazy(() => import("../features/series/SeriesResults").then((m) => ({ default: m.FillingBlanksResults })));
const SensitivityResults = lazy(() => import("../features/series/SeriesResults").then((m) => ({ default: m.SensitivityResults })));

const seriesNeedsGwp = (type: CalculationType) => isSeriesType(type) && seriesLayout(type).gwp !== undefined;

registerCalculationKind("regres_methane", {
  Form: ForecastForm,
  Results: ForecastResults,
  summary: forecastListSummary,
  needsGwp: () => false,
});
registerCalculationKind("filling_blanks", {
  Form: SeriesForm,
  Results: FillingBlanksResults,
  summary: fillingListSummary,
  needsGwp: seriesNeedsGwp,
});
registerCalculationKind("sensitivity", {
  Form: SeriesForm,
  Results: SensitivityResults,
  summary: sensitivityListSummary,
  needsGwp: seriesNeedsGwp,
});
