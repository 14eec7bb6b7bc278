// the answers that fold a whole year or years — the year's uncertainty (its 100 000 Monte
// Carlo trials), the trend and the trend's settings (the base year's check and every target's
// progress) — cost seconds of CPU. Each is computed once per what it depends on (../heavy-reads.ts)
// in a heavy-work slot of the user and the company, and off the request thread where the host can:
// the local host's spreadsheet threads compute it (SpreadsheetWorker.wholeYear, each company a
// bounded number at a time); in AWS the API instance that serves the request, which serves no other.
import type { Actor, Deps } from "../context";
import { heavyRead } from "../heavy-reads";
import type { WholeYearRead } from "../../ports";
import { getTrendSettings, recalculateBaseYearHere, setBaseYearHere, type TrendSettingsAnswer } from "./targets";
import { getTrend, type Trend } from "./trend";
import { yearUncertainty } from "./uncertainty";
import { reviewStepHere } from "./send";
import type { TransitionRequest } from "./review";
import type { InventoryReview } from "../../ports";

interface Answers {
  uncertainty: Awaited<ReturnType<typeof yearUncertainty>>;
  trend: Trend;
  trend_settings: TrendSettingsAnswer;
  review: InventoryReview;
  base_year: TrendSettingsAnswer;
  base_year_recalculation: TrendSettingsAnswer;
}

/** The answer computed here, in this thread: where the host's threads compute it (the local host's
 *  spreadsheet thread) and where the host has none. */
export function wholeYearAnswer(deps: Deps, actor: Actor, read: WholeYearRead): Promise<Answers[WholeYearRead["read"]]> {
  if (read.read === "uncertainty") return yearUncertainty(deps, actor, read.year, read.facility, read.base);
  if (read.read === "trend") return getTrend(deps, actor, read.from, read.to, read.facility, read.gwp_set);
  if (read.read === "review") return reviewStepHere(deps, actor, read.year, read.request);
  if (read.read === "base_year") return setBaseYearHere(deps, actor, read.body);
  if (read.read === "base_year_recalculation") return recalculateBaseYearHere(deps, actor, read.body);
  return getTrendSettings(deps, actor);
}

/** POST v1/inventory/{year}/review/: the step taken in the host's threads where it has them (never kept:
 *  it writes), here where it has none. a send folded the year twice — its checks, its
 *  snapshot and the snapshot's canonical JSON and SHA-256 — on the request thread, 35,5 and 53,8 ms at
 *  load 10 and 13,5 on the demo year (the loop budget). */
export async function reviewStep(deps: Deps, actor: Actor, year: number, request: TransitionRequest): Promise<InventoryReview> {
  const threads = deps.spreadsheets.wholeYear;
  const read = { read: "review" as const, year, request };
  return threads ? ((await threads(actor, read)) as InventoryReview) : reviewStepHere(deps, actor, year, request);
}

/** The answer as the routes give it: kept while the company's data stay as they are, else computed
 *  once in a heavy-work slot, off the request thread where the host can. */
export function wholeYear<R extends WholeYearRead>(deps: Deps, actor: Actor, read: R): Promise<Answers[R["read"]]> {
  const threads = deps.spreadsheets.wholeYear;
  return heavyRead(deps, actor, [read], async () =>
    threads ? ((await threads(actor, read)) as Answers[R["read"]]) : ((await wholeYearAnswer(deps, actor, read)) as Answers[R["read"]]),
  );
}
