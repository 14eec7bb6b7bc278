// Densities a module needs without the calculation registry's field declarations (types/fields.ts
// re-exports them): the browser's monitoring pages read ρ CH4 without loading the registry.

/** ρ CH4 at 20 °C and 101,325 kPa, kg/m³ (methodology §1.1). */
export const CH4_DENSITY_20C = 0.668;
