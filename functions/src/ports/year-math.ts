// the arithmetic of a whole year's answer that costs seconds of CPU (the uncertainty's
// Approach 1 table, key categories and its 100 000-trial Monte Carlo run), off the request thread
// where the host can: the local host's scoring threads (local/scoring-threads.ts); in AWS each API
// instance serves one request, so it runs in the instance (domain/inventory/uncertainty.ts).
import type { LineInput, LinesReport } from "@core/year-uncertainty";

export interface YearMath {
  linesReport(lines: readonly LineInput[], monteCarlo: { trials: number; seed: number }): Promise<LinesReport>;
}
