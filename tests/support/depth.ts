// How hard the hostile-input, property and load tests push. `npm run test:deep` sets TEST_DEPTH=deep
// and runs them at full strength; every other run uses a size that still catches what they found, in a
// fraction of the time. The sizes README.md names are SIZES (written there by npm run docs:generate).
export const DEEP = process.env.TEST_DEPTH === "deep";

/** `normal` in the everyday tiers, `deep` in the deep tier. */
export const bySize = <T>(normal: T, deep: T): T => (DEEP ? deep : normal);

/** A size of the everyday tiers and of the deep tier. */
export interface Size {
  readonly normal: number;
  readonly deep: number;
}

/** The sizes README.md gives: fuzz.test.ts's bodies per route, statistics-incremental.test.ts's runs of
 *  writes, heavy-work.test.ts's parallel uploads and inventory-large-approval.test.ts's calculations. */
export const SIZES = {
  fuzzBodiesPerJsonRoute: { normal: 50, deep: 500 },
  fuzzBodiesPerMultipartRoute: { normal: 50, deep: 150 },
  statisticsRuns: { normal: 2, deep: 10 },
  statisticsWritesPerRun: { normal: 1000, deep: 1000 },
  parallelUploads: { normal: 12, deep: 40 },
  approvalCalculations: { normal: 2_000, deep: 20_000 },
} as const satisfies Record<string, Size>;

/** A size at this run's depth. */
export const sized = (size: Size): number => bySize(size.normal, size.deep);
