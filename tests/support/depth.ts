// How hard the hostile-input, property and load tests push. `npm run test:deep` sets TEST_DEPTH=deep
// and runs them at full strength (fuzz 500 bodies per JSON route and 150 per multipart route, 10 × 1 000
// writes, 40 parallel uploads, an approval of 20 000 calculations); every other run uses a size that
// still catches what they found, in a fraction of the time (fuzz 50 bodies per route of either kind).
export const DEEP = process.env.TEST_DEPTH === "deep";

/** `normal` in the everyday tiers, `deep` in the deep tier. */
export const bySize = <T>(normal: T, deep: T): T => (DEEP ? deep : normal);
