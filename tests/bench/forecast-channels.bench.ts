// `npm run bench -- forecast-channels`: what the working's own channels gain over the x-only
// model on the ML audit's kind of longwall (tests/support/audit-longwall.ts: three weeks of 10-minute rows, face and
// return methane, the shearer's run status and position, a weekly rhythm, a drifting meter recalibrated once, 12
// episodes reaching 1 % on the return). At 1 h and 6 h, two of the company's own models are trained through the API
// on the first two weeks with the same parameters — one on x1…x15 alone, one also reading the face meter, the
// shearer's run status and position (`features`) — and the third week is forecast with each; printed from each
// forecast's back-test: the model's RMSE (beside persistence's), the 90 % band's coverage near the limit (rows
// forecast at or above the warning, 0,8 %) and the median lead time of the model's warnings before the return
// reached 1 % (warned of onsets), each by the product's own definitions; and (D96 c) the band on the rows
// whose fact reached 1 % and the forecast's mean error and RMSE there beside persistence's; and (D108) the chance's
// event (the window's maximum: any minute ≥ 1 % within the horizon), its Brier score beside the base rate's and the
// day-block bootstrap's 90 % interval of their difference (shown only where it lies below zero), and the shown band's
// coverage of the week — the model's, or the baseline's shown in its place, each with its own calibration.
import { AUDIT_CHANNELS, AUDIT_CHANNEL_HEADERS, AUDIT_ROWS, auditCsv, auditLongwall } from "../support/audit-longwall";
import { createHarness } from "../support/harness";

const HORIZONS = [60, 360];
const PARAMS = JSON.stringify({ n_estimators: 300, max_depth: 6 });

interface Score {
  rmse: number | null;
  lead_time: { median: number | null; onsets: number; warned: number };
  at_limit?: { rows: number; mean_error: number; rmse: number } | null;
}
type Share = { rows: number; coverage: number | null };
interface Stored {
  backtest: {
    shown?: string;
    model: Score;
    persistence: Score;
    interval: {
      coverage: number;
      level: number;
      near_limit: { rows: number; coverage: number | null; reliable: boolean; by_fact?: Share };
    } | null;
    probability?: {
      event?: string;
      brier: number;
      base_brier: number;
      events: number;
      rows: number;
      reliable: boolean | null;
      gain?: { lo: number | null; hi: number | null; holds: boolean; blocks: number };
    } | null;
  };
}

const ru = (v: number | null | undefined, digits: number) =>
  v === null || v === undefined ? "—" : v.toLocaleString("ru-RU", { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** D108 (a, b): the chance's event, Brier beside the base rate's, the bootstrap's interval and whether it is shown. */
function chanceText(p: Stored["backtest"]["probability"]): string {
  if (!p) return "no chance";
  const gain = p.gain;
  const interval = gain && gain.lo !== null && gain.hi !== null ? `${ru(gain.lo, 4)}…${ru(gain.hi, 4)} (${gain.blocks} days)` : "—";
  return (
    `chance of ${p.event ?? "the value"}: Brier ${ru(p.brier, 4)} against the base rate's ${ru(p.base_brier, 4)} ` +
    `(${p.events} of ${p.rows} rows with the event), bootstrap 90 % of the difference ${interval}, ` +
    `${p.reliable === true ? "shown" : p.reliable === null ? "too early, not shown" : "not shown"}`
  );
}

export async function run(): Promise<void> {
  const history = auditLongwall();
  const week = AUDIT_ROWS / 3;
  const h = await createHarness();
  try {
    const { token } = await h.signedInUser("Шахта «Каналы лавы»");
    const project = await h.newProject(token, "Каналы выработки");
    const at = history.y.filter((v) => v >= 1).length;
    console.log(
      `${AUDIT_ROWS} rows of 10 min (three weeks), ${at} at ≥ 1 % (${ru((100 * at) / AUDIT_ROWS, 2)} %); trained on weeks 1–2 (${2 * week} rows), ` +
        `forecast on week 3 (${week} rows); ${PARAMS}`,
    );
    const channels = [...AUDIT_CHANNELS];
    for (const horizon of HORIZONS) {
      for (const [label, own] of [
        ["x only       ", []],
        ["x + channels ", channels],
      ] as const) {
        const form = new FormData();
        form.set("horizon", String(horizon));
        form.set("params", PARAMS);
        if (own.length > 0) form.set("features", JSON.stringify(own.map((c) => AUDIT_CHANNEL_HEADERS[c])));
        form.set("file", new File([auditCsv(history, 0, 2 * week, channels)], "две недели.csv"));
        let start = performance.now();
        const trained = await h.request("/api/v1/forecast_models/xgboost/train/", { method: "POST", token, body: form });
        if (trained.status !== 201) throw new Error(`training: ${trained.status} ${await trained.text()}`);
        const model = (await trained.json()) as { id: string; num_trees: number };
        const training = (performance.now() - start) / 1000;
        const forecast = new FormData();
        forecast.set("name", `Неделя 3, ${horizon} мин`);
        forecast.set("project", project.id);
        forecast.set("method", "xgboost");
        forecast.set("horizon", String(horizon));
        forecast.set("model_id", model.id);
        forecast.set("file_data", new Blob([auditCsv(history, 2 * week, AUDIT_ROWS, channels)]), "неделя 3.csv");
        start = performance.now();
        const res = await h.request("/api/v1/regres_methane/", { method: "POST", token, body: forecast });
        if (res.status !== 201) throw new Error(`forecast: ${res.status} ${await res.text()}`);
        const { id } = (await res.json()) as { id: string };
        const forecasting = (performance.now() - start) / 1000;
        const done = (await (await h.request(`/api/v1/regres_methane/${id}/single_calc/1/`, { token })).json()) as Stored;
        const { model: score, persistence, interval } = done.backtest;
        const near = interval?.near_limit;
        console.log(
          `${horizon === 60 ? "1 ч" : "6 ч"} ${label}: RMSE ${ru(score.rmse, 4)} % (persistence ${ru(persistence.rmse, 4)} %); ` +
            `near the limit ${near ? `${ru(near.coverage === null ? null : 100 * near.coverage, 1)} % of ${near.rows} rows${near.reliable ? "" : " (not to be trusted)"}` : "—"}; ` +
            `by the fact ≥ 1 % ${near?.by_fact ? `${ru(near.by_fact.coverage === null ? null : 100 * near.by_fact.coverage, 1)} % of ${near.by_fact.rows}` : "—"}; ` +
            `at ≥ 1 % mean error ${ru(score.at_limit?.mean_error, 3)} % RMSE ${ru(score.at_limit?.rmse, 3)} % ` +
            `(persistence ${ru(persistence.at_limit?.mean_error, 3)} %, ${ru(persistence.at_limit?.rmse, 3)} %) on ${score.at_limit?.rows ?? 0} rows; ` +
            `lead ${ru(score.lead_time.median, 0)} min, warned ${score.lead_time.warned} of ${score.lead_time.onsets} onsets; ` +
            `shown: ${done.backtest.shown ?? "model"}, its ${interval?.level ?? 90} % band held ${ru(interval ? 100 * interval.coverage : null, 1)} % of the week; ` +
            `${chanceText(done.backtest.probability)}; ` +
            `${model.num_trees} trees, training ${ru(training, 1)} s, forecast ${ru(forecasting, 1)} s`,
        );
      }
    }
  } finally {
    await h.close();
  }
}
