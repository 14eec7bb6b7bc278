// The second plotly chunk, imported only with import() by the methane balance's Sankey diagram: the
// basic bundle (plotly.ts) has no sankey trace, and plotly's strict bundle is the one published
// build with it that uses no eval or new Function (CSP script-src 'self'). It is large (≈1,5 MB gzip),
// so nothing else loads it.
import createPlotlyComponent from "react-plotly.js/factory";
import Plotly from "plotly.js-strict-dist-min";
import { PLOTLY_RU } from "./plotly-locale";

Plotly.register(PLOTLY_RU);

export { Plotly };
export default createPlotlyComponent(Plotly);
