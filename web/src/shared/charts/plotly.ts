// The plotly chunk, imported only with import() by the infographics screen: react-plotly.js's
// factory bound to plotly's basic partial bundle (scatter, bar, pie; ~1 MB instead of ~4.6 MB for
// the full build). package.json overrides react-plotly.js's peer "plotly.js" with the same basic
// bundle, so the full build is never installed. The bundle uses no eval or new Function, so it
// runs under the CSP (script-src 'self'); it writes its styles into <style> elements, which
// style-src 'unsafe-inline' allows.
import createPlotlyComponent from "react-plotly.js/factory";
import Plotly from "plotly.js-basic-dist-min";
import { PLOTLY_RU } from "./plotly-locale";

Plotly.register(PLOTLY_RU);

export { Plotly };
export default createPlotlyComponent(Plotly);
