// «Модель прогноза» of a working on «Мониторинг»: one model per horizon (the company's own of that
// horizon or the platform's), or none — then the tile says there is no forecast and why; the working's
// methane meter it forecasts (the first by code was taken, unsaid). Under it, the
// sensor each column the model was trained on is read from (ML M1): by kind from the working
// where that is the default (x1, x7, x8, x15), else as chosen here; a column left without one is named
// on the tile. A model trained with the working's own channels (its named features: the face meter, the
// shearer's run status) has each bound here to a sensor of the working. A model is
// named short in the list («Модель платформы, версия 1», as «Модели прогноза» names it); the chosen one's
// description (XGBoost, its trees) is read in full under it (in the list it was cut to «…(модель платф…»
// on a phone).
import { useState } from "react";
import { Alert, Flex, Modal, Select, Typography } from "antd";
import { HORIZONS, PRESSURE_FEATURES, horizonLabel } from "@core/gbdt/horizon";
import { FORECAST_PRESSURE, REGISTRY, type NumberField } from "@core/registry";
import { SENSOR_KINDS } from "@core/monitoring";
import { LIVE_FEATURE_BY_KIND, LIVE_FEATURE_COLUMNS, LIVE_FEATURE_KINDS, type LiveFeatureColumn } from "@server/contract";
import { horizonModels, useForecastModels } from "../../../api/calculations";
import { useBindLiveModel, useLiveModels } from "../../../api/live";
import { useSensors, type Sensor } from "../../../api/monitoring";

const NONE = "";

/** Each column's name in words, as the forecast route's columns name them. */
const LABELS: Record<string, string> = Object.fromEntries(
  [...((REGISTRY.regres_methane.inputs.find((f) => f.name === "data")?.columns ?? []) as readonly NumberField[]), FORECAST_PRESSURE].map(
    (c) => [c.name, c.label],
  ),
);

/** The data columns a model reads (its features; the pressure where it reads p_atm or its change). */
function modelColumns(features: readonly string[]): LiveFeatureColumn[] {
  const pressure = (PRESSURE_FEATURES as readonly string[]).some((f) => features.includes(f));
  return LIVE_FEATURE_COLUMNS.filter((c) => (c === FORECAST_PRESSURE.name ? pressure : features.includes(c)));
}

/** A column's choices: by kind from the working (or none), and each active sensor of the facility it may read. */
function columnOptions(column: LiveFeatureColumn, sensors: readonly Sensor[], working: string) {
  const kind = LIVE_FEATURE_BY_KIND[column];
  const byKind = kind && sensors.find((s) => s.is_active && s.working === working && s.kind === kind);
  const first = kind ? `По виду датчика выработки${byKind ? `: ${byKind.code}` : ": датчика нет"}` : "Не задан: прогноз без этого столбца";
  return [
    { value: NONE, label: first },
    ...sensors
      .filter((s) => s.is_active && LIVE_FEATURE_KINDS[column].includes(s.kind))
      .map((s) => ({ value: s.id, label: s.working ? `${s.code} (${s.working})` : s.code })),
  ];
}

/** The working's methane meters a model may forecast, by code (the server's default is the first methane
 *  meter, else the first high-range one). */
function forecastMeters(sensors: readonly Sensor[], working: string): Sensor[] {
  const meters = sensors
    .filter((s) => s.is_active && s.working === working && (s.kind === "methane" || s.kind === "methane_high"))
    .sort((a, b) => a.code.localeCompare(b.code, "ru"));
  return [...meters.filter((s) => s.kind === "methane"), ...meters.filter((s) => s.kind === "methane_high")];
}

export default function BindModelDialog({ facility, working, onClose }: { facility: string; working: string; onClose: () => void }) {
  const [horizon, setHorizon] = useState(60);
  const models = useForecastModels();
  const bindings = useLiveModels(facility);
  const bound = bindings.data?.find((b) => b.working === working && b.horizon === horizon);
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const [features, setFeatures] = useState<Partial<Record<LiveFeatureColumn, string>> | undefined>(undefined);
  const [meter, setMeter] = useState<string | undefined>(undefined);
  const [channels, setChannels] = useState<Record<string, string> | undefined>(undefined);
  const bind = useBindLiveModel(facility);
  const sensors = useSensors(facility).data ?? [];
  const choices = horizonModels(models.data, "xgboost", horizon);
  const value = chosen ?? bound?.model ?? NONE;
  const version = choices.find((v) => v.id === value);
  const described = version?.description;
  const fed = features ?? bound?.features ?? {};
  const columns = version ? modelColumns(version.feature_names) : [];
  // The model's own named columns, each read from a sensor of this working (the binding's, until changed here).
  const named = version?.features ?? [];
  const tied = channels ?? (bound?.model === value ? (bound?.channels ?? {}) : {});
  const own = sensors
    .filter((s) => s.is_active && s.working === working)
    .sort((a, b) => a.code.localeCompare(b.code, "ru"))
    .map((s) => ({ value: s.id, label: `${s.code} — ${SENSOR_KINDS[s.kind].label}` }));
  // the meter the model forecasts is chosen here (it was the working's first, unsaid).
  const meters = forecastMeters(sensors, working);
  const forecast = meter ?? bound?.sensor ?? meters[0]?.id;
  return (
    <Modal
      open
      title={`Модель прогноза: ${working}`}
      onCancel={onClose}
      okText="Сохранить"
      cancelText="Отмена"
      okButtonProps={{ loading: bind.isPending }}
      onOk={() => {
        // Only the columns this model reads, each as chosen.
        const sent = Object.fromEntries(columns.flatMap((c) => (fed[c] ? [[c, fed[c]]] : [])));
        bind.mutate(
          {
            working,
            horizon,
            model: value === NONE ? null : value,
            features: sent,
            ...(value !== NONE && forecast ? { sensor: forecast } : {}),
            ...(named.length > 0 ? { channels: Object.fromEntries(named.flatMap((f) => (tied[f] ? [[f, tied[f]]] : []))) } : {}),
          },
          { onSuccess: onClose },
        );
      }}
    >
      <Flex vertical gap={12}>
        <Flex vertical gap={4}>
          <Typography.Text>Горизонт прогноза</Typography.Text>
          <Select
            aria-label="Горизонт прогноза"
            style={{ width: "100%" }}
            value={horizon}
            onChange={(h) => {
              setHorizon(h);
              setChosen(undefined);
              setFeatures(undefined);
              setMeter(undefined);
              setChannels(undefined);
            }}
            options={HORIZONS.filter((h) => h > 0).map((h) => ({ value: h, label: horizonLabel(h) }))}
          />
        </Flex>
        <Flex vertical gap={4}>
          <Typography.Text>Модель</Typography.Text>
          <Select
            aria-label="Модель"
            style={{ width: "100%" }}
            value={value}
            loading={models.isPending}
            onChange={(id: string) => {
              setChosen(id);
              setChannels(undefined);
            }}
            options={[
              { value: NONE, label: "Без модели: прогноз не считается" },
              ...choices.map((v) => ({
                value: v.id,
                label: `${v.company === undefined ? "Модель платформы" : "Модель компании"}, версия ${v.version}`,
              })),
            ]}
          />
          {described && (
            <Typography.Text type="secondary" data-testid="model-description">
              {described}
            </Typography.Text>
          )}
        </Flex>
        {value !== NONE && (
          <Flex vertical gap={4}>
            <Typography.Text>Датчик метана, который прогнозирует модель</Typography.Text>
            <Select
              aria-label="Датчик прогноза"
              style={{ width: "100%" }}
              value={forecast}
              placeholder="В выработке нет датчика метана"
              onChange={setMeter}
              options={meters.map((s) => ({ value: s.id, label: s.code }))}
            />
          </Flex>
        )}
        {columns.length > 0 && (
          <Flex vertical gap={8} data-testid="model-columns">
            <Typography.Text strong>Датчики столбцов модели</Typography.Text>
            {columns.map((column) => (
              <Flex vertical gap={2} key={column}>
                <Typography.Text>
                  {column}: {LABELS[column]}
                </Typography.Text>
                <Select
                  aria-label={`Датчик столбца ${column}`}
                  style={{ width: "100%" }}
                  value={fed[column] ?? NONE}
                  onChange={(id: string) => setFeatures({ ...fed, [column]: id === NONE ? undefined : id })}
                  options={columnOptions(column, sensors, working)}
                />
              </Flex>
            ))}
          </Flex>
        )}
        {named.length > 0 && (
          <Flex vertical gap={8} data-testid="model-channels">
            <Typography.Text strong>Каналы выработки для собственных столбцов модели</Typography.Text>
            {named.map((feature) => (
              <Flex vertical gap={2} key={feature}>
                <Typography.Text>{feature}</Typography.Text>
                <Select
                  aria-label={`Датчик для «${feature}»`}
                  style={{ width: "100%" }}
                  value={tied[feature]}
                  placeholder="Выберите датчик выработки"
                  onChange={(id: string) => setChannels({ ...tied, [feature]: id })}
                  options={own}
                />
              </Flex>
            ))}
          </Flex>
        )}
        <Typography.Text type="secondary">
          Прогноз считается по последним минутам показаний выработки с шагом 10 минут при каждом новом пакете показаний.
        </Typography.Text>
        {bind.isError && <Alert type="error" showIcon role="alert" title={bind.error.message} />}
      </Flex>
    </Modal>
  );
}
