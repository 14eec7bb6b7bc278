// The calculations page as the route table loads it: the page, and how the forecast and series kinds
// it shows are loaded (app/registerCalculationKinds.tsx), which the page waits for beside its list.
import { setCalculationKindsLoader } from "../shared/calculationKindRegistry";

setCalculationKindsLoader(() => import("./registerCalculationKinds"));

export { default } from "../features/calculations/CalculationsPage";
