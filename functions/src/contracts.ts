// What the web app may know of the server: the shapes of its answers and the types of its routes,
// types only (nothing of the server reaches the browser bundle). The web imports the server
// through this module alone (biome.json forbids the domain, adapters, hosts and routes directly).
export type { CalculationView, CoefficientView, DictionaryEntry, DocumentView, ProjectGraphs } from "./views";
export type * from "./route-contracts";
