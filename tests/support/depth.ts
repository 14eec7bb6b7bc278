// How hard the hostile-input, property and load tests push. `npm run test:deep` sets TEST_DEPTH=deep
// and runs them at full strength (fuzz 500 bodies per JSON route, 10 × 1 000 writes, 40 parallel
// uploads, an approval of 20 000 calculations); every other run uses a size that still catches what
// they found, in a fraction of the time.
export const DEEP = process.env.TEST_DEPTH === "deep";

/** `normal` in the everyday tiers, `deep` in the deep tier. */
export const bySize = <T>(normal: T, deep: T): T => (DEEP ? deep : normal);
