// docs/security.md lists every bound with the number the code holds: the sign-in budgets, the
// heavy-work slots and their Retry-After, the caps, the job files' expiry, the charts' points, the
// previews' errors and budget, the year's checks (methodology 9.1) and the production calendar's
// years. A bound changed in the code and not in the document fails here, as does one left out.
// (The bounds on magnitudes are checked the same way by magnitudes.test.ts.)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CALENDAR_YEARS } from "@core/calendar-days";
import { configFromEnv, USER_REQUEST_BURST, USER_REQUESTS_PER_SECOND } from "@server/config";
import { RETRY_AFTER_SECONDS } from "@server/domain/errors";
import { MAX_GRAPH_POINTS } from "@server/domain/calculations/graphs";
import { FORECAST_DATA_PAGE_MAX } from "@server/contract";
import { MAX_MODEL_NODES } from "@core/gbdt";
import { COMPANY_MODEL_BYTES, MAX_MODEL_BYTES, MODEL_CACHE_BYTES } from "@server/domain/forecast/models";
import {
  HEAVY_CARRY_SECONDS,
  HEAVY_PER_COMPANY,
  HEAVY_PER_USER,
  JOB_FILE_DAYS,
  MAX_EXPORT_CALCULATIONS,
  MAX_FORECASTS_PER_PROJECT,
  MAX_PASSPORT_LINES,
  UPLOAD_BUDGET_SECONDS,
} from "@server/domain/heavy-work";
import { MAX_FORECAST_ROWS } from "@server/domain/forecast/forecast";
import { SCORING_THREADS } from "@server/local/scoring-threads";
import { NAMED } from "@server/domain/inventory/checks";
import { COMMENTS_PER_YEAR } from "@server/domain/inventory/comments";
import { TREND_YEARS_MAX } from "@server/domain/inventory/trend";
import { MAX_POINTS_PER_FACILITY } from "@server/domain/company/emission-points";
import { ID_MAX_LENGTH } from "@server/contract/schemas/common";
import { MAX_PREVIEW_ERRORS } from "@server/domain/calculations/upload-preview";
import { FORECAST_UPLOADS_PER_COMPANY_BYTES, FORECAST_UPLOADS_PER_USER_BYTES } from "@server/contract/schemas/uploads";

// The document's lines wrapped as markdown does: one space between any two words.
const DOC = readFileSync(join(import.meta.dirname, "../../docs/security.md"), "utf8").replace(/\s+/g, " ");
const n = (value: number) => value.toLocaleString("ru-RU").replace(/\s/g, " ");
const config = configFromEnv(Buffer.alloc(32));
const MB = 1024 * 1024;

describe("docs/security.md", () => {
  it.each([
    ["failed sign-ins per account", `**${n(config.loginFailuresPerEmail)} failures per account**`],
    ["failed sign-ins per address", `**${n(config.loginFailuresPerAddress)} per address**`],
    ["the sign-in window", `sliding ${n(config.loginWindowSeconds / 60)}-minute window`],
    ["a refusal's Retry-After", `${RETRY_AFTER_SECONDS} s for a heavy-work slot`],
    ["heavy work in flight", `**${HEAVY_PER_USER} per user and ${HEAVY_PER_COMPANY} per company**`],
    ["active forecasts of a project", `**${n(MAX_FORECASTS_PER_PROJECT)} active forecasts per project**`],
    ["comments of a year", `**${n(COMMENTS_PER_YEAR)} comments per year**`],
    ["emission points of a facility", `**${n(MAX_POINTS_PER_FACILITY)} emission points per facility**`],
    ["job files", `after **${JOB_FILE_DAYS} days**`],
    ["a trained model's nodes", `at most **${n(MAX_MODEL_NODES)} nodes**`],
    ["a model file", `at most **${n(MAX_MODEL_BYTES / 1024 / 1024)} MB** (\`MAX_MODEL_BYTES\``],
    ["a company's models", `at most **${n(COMPANY_MODEL_BYTES / 1024 / 1024)} MB** (\`COMPANY_MODEL_BYTES\``],
    ["the parsed models kept", `up to **${n(MODEL_CACHE_BYTES / 1024 / 1024)} MB** of their files (\`MODEL_CACHE_BYTES\``],
    ["the threads that run models", `at most **${SCORING_THREADS} scoring threads** (\`SCORING_THREADS\``],
    ["a job's slots carried", `every **${HEAVY_CARRY_SECONDS} s** (\`HEAVY_CARRY_SECONDS\`)`],
    ["a chart's series", `**${n(MAX_GRAPH_POINTS)} points**`],
    ["a forecast's read", `at most **${n(FORECAST_DATA_PAGE_MAX)} rows** (\`FORECAST_DATA_PAGE_MAX\``],
    ["a user's pace", `at most **${USER_REQUEST_BURST} at once, then ${USER_REQUESTS_PER_SECOND} a second**`],
    ["a preview's errors", `at most **${n(MAX_PREVIEW_ERRORS)}** errors`],
    ["an upload's time", `has **${UPLOAD_BUDGET_SECONDS} s**`],
    ["a check's named calculations", `names at most **${NAMED}** calculations`],
    ["the trend's years", `at most **${TREND_YEARS_MAX} years per request**`],
    ["the inventory answer with its checks", "under **100 KB** at any size"],
    ["a calendar year", `from **${CALENDAR_YEARS.min} to ${CALENDAR_YEARS.max}**`],
    ["a calendar year's working days", "**at least one working day**"],
    ["a forecast's rows", `${n(MAX_FORECAST_ROWS)} rows`],
    ["a project export", `${n(MAX_EXPORT_CALCULATIONS)} active calculations`],
    ["a report passport", `${n(MAX_PASSPORT_LINES)} sources in the year`],
    ["ИНН and КПП of no tax office", "**0000** is no office's"],
    ["an id", `at most **${ID_MAX_LENGTH} characters**`],
    [
      "direct uploads not yet used",
      `**${n(FORECAST_UPLOADS_PER_USER_BYTES / MB)} MB per user and ${n(FORECAST_UPLOADS_PER_COMPANY_BYTES / MB)} MB per company**`,
    ],
  ])("gives %s with its number", (_, text) => {
    expect(DOC).toContain(text);
  });
});
