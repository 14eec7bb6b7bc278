// One working on «Мониторинг»: each methane meter's latest reading with its state in words and colour,
// «нет данных N мин» when stale (D65), the air and drainage flow, each bound model's forecast with its
// interval and probability, which alert rule is on and why (D65), or why there is no forecast; the
// model's control and the 24-hour chart open from it. Where every horizon's forecast has the same model,
// note and alert rule (the demo's five default models), those are said once under the forecasts' lines,
// not five times over.
import { lazy, Suspense, useState } from "react";
import { Button, Card, Flex, Tag, Typography } from "antd";
import type { LiveTile } from "../../api/live";
import { displayDateTime } from "../../shared/dates";
import { STATE_COLOR, STATE_WORDS, forecastText, levelsText, meterValue, number, RULE_NAMES, staleText, worstState } from "./liveTexts";

const LiveChartCard = lazy(() => import("./LiveChartCard"));
const BindModelDialog = lazy(() => import("./BindModelDialog"));

const BORDER: Record<string, string> = { alarm: "#cf1322", warning: "#fa8c16", pre_warning: "#d4b106" };

type Forecast = LiveTile["forecasts"][number];
/** What a forecast says beside its figure: its model, its note, its alert rule and why. */
const aboutKey = (f: Forecast) => JSON.stringify([f.model.label, f.note, f.alert.rule, f.alert.raised, f.alert.reason]);

/** A forecast's model, note and alert rule with its reason. */
function ForecastAbout({ f }: { f: Forecast }) {
  return (
    <>
      <Typography.Text type="secondary">{f.model.label}</Typography.Text>
      {f.note && <Typography.Text type="secondary">{f.note}</Typography.Text>}
      <Flex wrap gap={6} align="baseline">
        <Typography.Text>Оповещение {RULE_NAMES[f.alert.rule]}</Typography.Text>
        {f.alert.raised && <Tag color="red">{f.alert.rule === "forecast" ? "Прогноз превышения" : "Текущее ≥ 0,9·предела"}</Tag>}
      </Flex>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }} ellipsis={{ rows: 2, expandable: true, symbol: "подробнее" }}>
        {f.alert.reason}
      </Typography.Paragraph>
    </>
  );
}

export function LiveTileCard({ facility, tile }: { facility: string; tile: LiveTile }) {
  const [chart, setChart] = useState(false);
  const [binding, setBinding] = useState(false);
  const worst = worstState(tile);
  // Two or more forecasts saying the same beside their figures: said once.
  const shared = tile.forecasts.length > 1 && new Set(tile.forecasts.map(aboutKey)).size === 1;
  return (
    <Card
      title={tile.working}
      data-testid="live-tile"
      aria-label={`Выработка ${tile.working}: ${STATE_WORDS[worst]}`}
      style={{ borderColor: BORDER[worst], borderWidth: BORDER[worst] ? 2 : 1 }}
      extra={<Tag color={STATE_COLOR[worst]}>{STATE_WORDS[worst]}</Tag>}
    >
      <Flex vertical gap={8}>
        {tile.meters.map((m) => (
          <Flex key={m.sensor} wrap gap={6} align="baseline">
            <Typography.Text strong>{m.code}</Typography.Text>
            <Typography.Text>{meterValue(m)}</Typography.Text>
            <Tag color={STATE_COLOR[m.state]}>{m.state_label}</Tag>
            {m.stale_minutes !== null && <Tag color="default">{staleText(m.stale_minutes)}</Tag>}
            {levelsText(m) && <Typography.Text type="secondary">{levelsText(m)}</Typography.Text>}
          </Flex>
        ))}
        <Typography.Text>
          Расход воздуха:{" "}
          {tile.air_flow
            ? `${number(tile.air_flow.value, 0)} м³/мин (${tile.air_flow.code})${tile.air_flow.stale_minutes === null ? "" : `, ${staleText(tile.air_flow.stale_minutes)}`}`
            : "нет датчика"}
        </Typography.Text>
        <Typography.Text>
          Расход дегазации:{" "}
          {tile.drainage_flow
            ? `${number(tile.drainage_flow.value, 1)} м³/мин (${tile.drainage_flow.code})${tile.drainage_flow.stale_minutes === null ? "" : `, ${staleText(tile.drainage_flow.stale_minutes)}`}`
            : "нет датчика"}
        </Typography.Text>
        {tile.forecasts.map((f) => (
          <Flex key={f.horizon} vertical gap={2} data-testid="live-forecast">
            <Typography.Text>
              Прогноз {f.sensor} на {f.horizon_label}
              {f.for ? ` (к ${displayDateTime(f.for).slice(11)})` : ""}: {forecastText(f)}
            </Typography.Text>
            {!shared && <ForecastAbout f={f} />}
          </Flex>
        ))}
        {shared && (
          <Flex vertical gap={2} data-testid="live-forecast-about">
            <ForecastAbout f={tile.forecasts[0]} />
          </Flex>
        )}
        {tile.forecast_note && <Typography.Text type="secondary">{tile.forecast_note}</Typography.Text>}
        <Typography.Text type="secondary">
          {tile.updated_at ? `Последнее показание: ${displayDateTime(tile.updated_at)}` : "Показаний за сутки нет"}
        </Typography.Text>
        <Flex wrap gap={8}>
          <Button size="small" onClick={() => setBinding(true)}>
            Модель прогноза
          </Button>
          <Button size="small" onClick={() => setChart((v) => !v)} aria-expanded={chart}>
            {chart ? "Скрыть график" : "График за сутки"}
          </Button>
        </Flex>
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
