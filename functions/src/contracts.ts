// What the web app may know of the server: the shapes of its answers and the types of its routes,
// types only (nothing of the server reaches the browser bundle). The web imports the server
// through this module alone (biome.json forbids the domain, adapters, hosts and routes directly).
export type { DictionaryEntry } from "./domain/dictionaries";
export type { ProjectGraphs } from "./domain/graphs";
export type { DocumentView } from "./domain/documents";
export type * from "./route-contracts";

import type { calculationView } from "./domain/calculations";

/** One calculation as the API answers it (calculationView, SPEC 3): the common fields, the
 *  coefficients used, the flags, then the type's inputs and results side by side under their
 *  registry names, which is why it has an index signature (`[field: string]: unknown`). */
export type CalculationView = ReturnType<typeof calculationView>;
