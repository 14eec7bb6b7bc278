// plotly.js-basic-dist-min ships no types: it is plotly.js's API (typed by @types/plotly.js).
declare module "plotly.js-basic-dist-min" {
  import * as Plotly from "plotly.js";
  const plotly: typeof Plotly & { register(module: unknown): void };
  export default plotly;
}

// The strict bundle (plotly-strict.ts): the same API, with the sankey trace.
declare module "plotly.js-strict-dist-min" {
  import * as Plotly from "plotly.js";
  const plotly: typeof Plotly & { register(module: unknown): void };
  export default plotly;
}
