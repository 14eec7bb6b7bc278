// One working on «Мониторинг»: each methane meter's latest reading with its state in words and colour,
// «нет данных N мин» when stale (D65), the air and drainage flow, each bound model's forecast with its
// interval and probability, which alert rule is on and why (D65), or why there is no forecast; the
// model's control and the 24-hour chart open from it. The forecasts are one table, a row per horizon
// (when, the figure, its interval, P); their model, note and alert rule are said once under it where
// every horizon shares them (the demo's five default models), else once per group of horizons that do.
import { lazy, type ReactNode, Suspense, useState } from "react";
import { Button, Card, Flex, Tag, Typography } from "antd";
import type { LiveTile } from "../../../api/live";
import { useMethaneLimits } from "../../../api/journal";
import { limitText } from "../texts/limitTexts";
import CheckProblems from "../instruments/CheckProblems";
import { displayDateTime } from "../../../shared/dates";
import { SENSOR_PLACES } from "@core/sensor-places";
import {
  STATE_COLOR,
  forecastTable,
  groupedBy,
  horizonsOf,
  flowText,
  levelsText,
  meterValue,
  number,
  RULE_NAMES,
  nearLimitDoubtful,
  worstState,
  channelText,
} from "../texts/liveTexts";
import { staleText } from "@core/monitoring-events";

const LiveChartCard = lazy(() => import("./LiveChartCard"));
const BindModelDialog = lazy(() => import("./BindModelDialog"));

const BORDER: Record<string, string> = {
  gassing: "#cf1322",
  alarm: "#cf1322",
  warning: "#fa8c16",
  pre_warning: "#d4b106",
  stale: "#722ed1",
  none: "#722ed1",
};

type Forecast = LiveTile["forecasts"][number];

const CELL = { padding: "2px 8px 2px 0", whiteSpace: "nowrap", textAlign: "left", fontWeight: "normal", verticalAlign: "bottom" } as const;
/** A column's head wraps between its words only, never inside one. */
const WORDS = { whiteSpace: "normal", wordBreak: "normal", overflowWrap: "normal" } as const;
const HEAD = { ...CELL, ...WORDS } as const;
/** The last column ends at the table's edge (no padding past it to scroll to). */
const last = <T extends object>(style: T, i: number, count: number) => (i === count - 1 ? { ...style, paddingRight: 0 } : style);

/** What a horizon shows where the model beats no baseline (D108 e: the best of them, named). */
const INSTEAD: Partial<Record<NonNullable<Forecast["shown"]>, string>> = {
  persistence: "последнее показание (модель не точнее)",
  mean: "среднее за период обучения (модель не точнее)",
  time_of_day: "среднее по времени суток (модель не точнее)",
};

/** where a horizon shows the last reading (the model was not more accurate on the
 *  history), the row says so, and the model's own figure is one click away. */
function ModelFigure({ value, instead }: { value: number | null; instead: Forecast["shown"] }) {
  const [shown, setShown] = useState(false);
  return (
    <div style={{ ...WORDS, maxWidth: 180 }}>
      {/* antd's text breaks inside a word (word-break: break-word), which lets the column shrink below one word. */}
      <Typography.Text type="secondary" style={{ ...WORDS, fontSize: 12 }}>
        {INSTEAD[instead ?? "persistence"] ?? INSTEAD.persistence}{" "}
      </Typography.Text>
      {shown ? (
        <Typography.Text style={{ ...WORDS, fontSize: 12 }} data-testid="model-own">
          модель: {value === null ? "—" : number(value, 2)}
        </Typography.Text>
      ) : (
        <Typography.Link style={{ ...WORDS, fontSize: 12 }} onClick={() => setShown(true)}>
          прогноз модели
        </Typography.Link>
      )}
    </div>
  );
}

/** The forecasts as one table, a row per horizon: when, the figure, its interval and P. */
function ForecastTable({ forecasts }: { forecasts: Forecast[] }) {
  const table = forecastTable(forecasts);
  const heads = ["Горизонт", "К времени", "%\u00a0об.", table.head.interval, "P"];
  return (
    <div style={{ overflowX: "auto" }}>
      <table style={{ borderCollapse: "collapse", fontVariantNumeric: "tabular-nums" }} data-testid="live-forecasts">
        <caption style={{ captionSide: "top", textAlign: "left", paddingBottom: 2 }}>{table.caption}</caption>
        <thead>
          <tr>
            {heads.map((h, i) => (
              <th key={h} scope="col" style={last(HEAD, i, heads.length)}>
                <Typography.Text type="secondary" style={WORDS}>
                  {h}
                </Typography.Text>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, i) => (
            <tr key={forecasts[i].horizon} data-testid="live-forecast">
              <th scope="row" style={CELL}>
                {row.horizon}
                {row.late && (
                  // Under the horizon, not beside it: beside, it pushed the P column out of a phone's tile.
                  <Typography.Text type="secondary" style={{ ...WORDS, display: "block", maxWidth: 90, fontSize: 12 }}>
                    {row.late}
                  </Typography.Text>
                )}
              </th>
              <td style={CELL}>{row.at}</td>
              <td style={CELL}>
                {row.value}
                {forecasts[i].model_result !== undefined && (
                  <ModelFigure value={forecasts[i].model_result ?? null} instead={forecasts[i].shown} />
                )}
                {forecasts[i].made_without?.length ? (
                  // Under the figure, not beside it: beside, it pushed the P column out of a phone's tile.
                  <Tag color="purple" style={{ display: "block", width: "fit-content", margin: "2px 0 0" }}>
                    без {forecasts[i].made_without?.join(", ")}
                  </Tag>
                ) : null}
              </td>
              {/* «у предела не проверен» wraps between its words: on one line it pushed P out of a phone's tile. */}
              <td style={nearLimitDoubtful(forecasts[i]) ? { ...CELL, ...WORDS, maxWidth: 90 } : CELL}>{row.interval}</td>
              <td style={{ ...CELL, paddingRight: 0 }}>{row.p}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A grey note cut to one line by CSS (its whole text stays in the page, for a screen reader and a search), opened
 *  and closed by a click or Enter. */
function OneLine({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const toggle = () => setOpen((v) => !v);
  return (
    <Typography.Text
      type="secondary"
      role="button"
      tabIndex={0}
      aria-expanded={open}
      title={open ? undefined : "Показать целиком"}
      onClick={toggle}
      onKeyDown={(e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          toggle();
        }
      }}
      data-testid="live-forecast-note"
      style={
        open
          ? { cursor: "pointer", display: "block" }
          : { cursor: "pointer", display: "block", whiteSpace: "nowrap", overflow: "hidden", textOverflow: "ellipsis" }
      }
    >
      {children}
    </Typography.Text>
  );
}

/** «10 мин, 1 ч: » before what is said for some of the horizons only. */
const For = ({ horizons, apart }: { horizons: string; apart: boolean }) => (apart ? <>{horizons}: </> : null);

/** «Прогноз превышения» where the forecast's rule is raised, naming the horizons where not every one of the tile's
 *  is. The reading's rule is one reading's: its tag is said once for the tile (readingTag), never per horizon. */
function raisedTag(group: Forecast[], all: number) {
  const raised = group.filter((f) => f.alert.raised && f.alert.rule === "forecast");
  if (raised.length === 0) return null;
  const what = "Прогноз превышения";
  return <Tag color="red">{raised.length === all ? what : `${what}: ${horizonsOf(raised)}`}</Tag>;
}

/** «Текущее ≥ 0,9·предела» once for the tile where any horizon's reading rule is raised (one reading, one tag). */
function readingTag(forecasts: Forecast[]) {
  if (!forecasts.some((f) => f.alert.raised && f.alert.rule === "reading")) return null;
  return (
    <Tag color="red" data-testid="reading-alert">
      Текущее ≥ 0,9·предела
    </Tag>
  );
}

/** The forecasts' model, note and alert rule with its reason: each said once where every horizon shares
 *  it, else once per group of horizons that do. */
function ForecastAbout({ forecasts }: { forecasts: Forecast[] }) {
  const models = groupedBy(forecasts, (f) => f.model.label);
  const notes = groupedBy(forecasts, (f) => f.note).filter((g) => g.forecast.note);
  const notesApart = groupedBy(forecasts, (f) => f.note).length > 1;
  // A rule and its reason said once for the horizons that share them; raised where it is, by horizon
  // where only some of them are.
  const alerts = groupedBy(forecasts, (f) => JSON.stringify([f.alert.rule, f.alert.reason]));
  return (
    <Flex vertical gap={2} data-testid="live-forecast-about">
      {models.map(({ horizons, forecast: f }) => (
        <Typography.Text key={f.horizon} type="secondary">
          <For horizons={horizons} apart={models.length > 1} />
          Модель: {f.model.label}
        </Typography.Text>
      ))}
      {/* A note a line each, the rest one click away: long grey notes filled the tile. */}
      {notes.map(({ horizons, forecast: f }) =>
        (f.notes?.length ? f.notes : [f.note]).map((line, i) => (
          <OneLine key={`${f.horizon}-${i}`}>
            <For horizons={horizons} apart={notesApart} />
            {line}
          </OneLine>
        )),
      )}
      {readingTag(forecasts)}
      {alerts.map(({ horizons, forecast: f, members }) => (
        <Flex key={f.horizon} vertical gap={2}>
          <Flex wrap gap={6} align="baseline">
            <Typography.Text>
              <For horizons={horizons} apart={alerts.length > 1} />
              Оповещение {RULE_NAMES[f.alert.rule]}
            </Typography.Text>
            {raisedTag(members, forecasts.length)}
          </Flex>
          <Typography.Paragraph type="secondary" style={{ margin: 0 }} ellipsis={{ rows: 2, expandable: true, symbol: "подробнее" }}>
            {f.alert.reason}
          </Typography.Paragraph>
        </Flex>
      ))}
    </Flex>
  );
}

export function LiveTileCard({ facility, tile }: { facility: string; tile: LiveTile }) {
  const limits = useMethaneLimits().data;
  const [chart, setChart] = useState(false);
  const [binding, setBinding] = useState(false);
  const worst = worstState(tile);
  // the sensors without a working are a tile under their place (no model, no chart).
  const place = tile.place ? SENSOR_PLACES[tile.place] : null;
  return (
    <Card
      title={place ?? tile.working}
      // A place's name («Ствол (канал вентилятора)») wraps between its words beside the head's tag on a
      // phone, never cut with «…».
      // The head's tag («нет показаний (Q-1); нет данных 95 мин (М-7, М-8)») wraps within its half too.
      styles={{ title: { whiteSpace: "normal", overflow: "visible", textOverflow: "clip" }, extra: { minWidth: 0, maxWidth: "60%" } }}
      data-testid="live-tile"
      aria-label={`${place ? `Место: ${place}` : `Выработка ${tile.working}`}: ${worst.words}`}
      style={{ borderColor: BORDER[worst.state], borderWidth: BORDER[worst.state] ? 2 : 1 }}
      extra={
        <Tag color={worst.colour} style={{ whiteSpace: "normal", marginInlineEnd: 0 }}>
          {worst.words}
        </Tag>
      }
    >
      <Flex vertical gap={8}>
        {tile.meters.map((m) => (
          <Flex key={m.sensor} wrap gap={6} align="baseline">
            <Typography.Text strong>{m.code}</Typography.Text>
            <Typography.Text>{meterValue(m)}</Typography.Text>
            <Tag color={STATE_COLOR[m.state]}>{m.state_label}</Tag>
            {/* D98: in a gassing, the W/A state the reading also reached, beside it. */}
            {m.levels_label && <Tag color="orange">{m.levels_label}</Tag>}
            {/* A silent meter below the levels says its silence as its state (never «норма»): said once. */}
            {m.stale_minutes !== null && m.state !== "none" && <Tag color="default">{staleText(m.stale_minutes)}</Tag>}
            {levelsText(m) && <Typography.Text type="secondary">{levelsText(m)}</Typography.Text>}
            {limitText(limits, m.kind, m.place, m.norm_place) && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {limitText(limits, m.kind, m.place, m.norm_place)}
              </Typography.Text>
            )}
          </Flex>
        ))}
        {/* a sensor of the working (or the place's) whose check failed or is overdue. */}
        {place ? (
          <CheckProblems facility={facility} working="" sensors={tile.meters.map((m) => m.sensor)} />
        ) : (
          <CheckProblems facility={facility} working={tile.working} />
        )}
        {/* A place's tile says the flows it has; a working's says a flow meter it lacks. */}
        {(!place || tile.air_flow) && <Typography.Text>Расход воздуха: {flowText(tile.air_flow, 0)}</Typography.Text>}
        {(!place || tile.drainage_flow) && <Typography.Text>Расход дегазации: {flowText(tile.drainage_flow, 1)}</Typography.Text>}
        {/* D101: every other channel of the working, with its silence. */}
        {tile.channels.map((c) => (
          <Typography.Text
            key={c.sensor}
            type={c.stale_minutes !== null || c.value === null ? "danger" : undefined}
            data-testid="live-channel"
          >
            {channelText(c)}
          </Typography.Text>
        ))}
        {tile.forecasts.length > 0 && (
          <>
            <ForecastTable forecasts={tile.forecasts} />
            <ForecastAbout forecasts={tile.forecasts} />
          </>
        )}
        {tile.forecast_note && <Typography.Text type="secondary">{tile.forecast_note}</Typography.Text>}
        <Typography.Text type="secondary">
          {tile.updated_at ? `Последнее показание: ${displayDateTime(tile.updated_at)}` : "Показаний за сутки нет"}
        </Typography.Text>
        {!place && (
          <Flex wrap gap={8}>
            <Button size="small" onClick={() => setBinding(true)}>
              Модель прогноза
            </Button>
            <Button size="small" onClick={() => setChart((v) => !v)} aria-expanded={chart}>
              {chart ? "Скрыть график" : "График за сутки"}
            </Button>
          </Flex>
        )}
        {chart && (
          <Suspense>
            <LiveChartCard facility={facility} working={tile.working} updated={tile.updated_at} />
          </Suspense>
        )}
      </Flex>
      {binding && (
        <Suspense>
          <BindModelDialog facility={facility} working={tile.working} onClose={() => setBinding(false)} />
        </Suspense>
      )}
    </Card>
  );
}
