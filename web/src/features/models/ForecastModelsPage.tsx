// «Модели прогноза»: where a ventilation engineer keeps the company's own methane forecast models —
// trains one on a longwall's history («Обучить модель»), sees what each was trained on and how well
// it checked, chooses which one the company's forecasts use (or the platform's again), names it,
// archives and restores it. Other companies never see them; the platform's models are chosen by
// the administrators (/admin).
import { lazy, Suspense } from "react";
import { horizonLabel } from "@core/gbdt/horizon";
import { Alert, Button, Card, Popconfirm, Space, Tag, Typography } from "antd";
// The limits module alone: the contract's index would bring its schemas into this first page.
import { MODEL_DESCRIPTION_MAX } from "@server/contract/schemas/limits";
import { CheckCircleOutlined } from "@ant-design/icons";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { displayWrittenTime } from "../../shared/dates";
import { ListTable } from "../../shared/LazyTable";
import { StackedRows, type StackedColumn } from "../../shared/StackedRows";
import { usePhone } from "../../shared/useMediaQuery";
import type { ColumnType } from "antd/es/table";
import { formatResult } from "../../shared/decimals";
import { useFeedback } from "../../shared/feedback";
import { adminKeys, errorText, useForecastModelList, type ForecastModelVersion } from "../../api/admin";
import { changeOwnForecastModel, type OwnModelChange } from "./api";
import { WhenWho } from "../../shared/WhenWho";

// Training (its form, the upload and the worker's messages) loads when the page has drawn the models:
// the page's first JavaScript stays within the routes' budget (tests/web/bundle.test.ts).
const TrainModelCard = lazy(() => import("../../shared/TrainModelCard").then((m) => ({ default: m.TrainModelCard })));
// The calibration of the model in use (its upload too) loads the same way.
const CalibrateModelCard = lazy(() => import("./CalibrateModelCard").then((m) => ({ default: m.CalibrateModelCard })));

const EMPTY = "Своих моделей пока нет: обучите модель на истории лавы ниже";

const count = (n: number) => n.toLocaleString("ru-RU").replace(/\s/g, " ");

/** The rows and period a version was trained on, as people read them. */
function trainedOn(v: ForecastModelVersion): string {
  const t = v.training;
  if (!t) return "—";
  const period =
    t.period && typeof t.period.from === "string" && typeof t.period.to === "string"
      ? `, ${displayWrittenTime(t.period.from)} – ${displayWrittenTime(t.period.to)}`
      : "";
  // A model ahead names its horizon; the nowcast (0) says nothing more.
  const ahead = (v.horizon ?? 0) > 0 ? `; прогноз на ${horizonLabel(v.horizon ?? 0)} вперед` : "";
  return `${count(t.rows)} строк${period}${ahead}`;
}

const modelName = (v: ForecastModelVersion) =>
  v.company === undefined ? `модель платформы, версия ${v.version}` : `«${v.description || `версия ${v.version}`}», версия ${v.version}`;

export default function ForecastModelsPage() {
  const { data, isLoading, isError, error } = useForecastModelList();
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const versions = data?.results.find((r) => r.method === "xgboost")?.versions ?? [];
  const own = versions.filter((v) => v.company !== undefined).sort((a, b) => b.version - a.version);
  const platform = versions.filter((v) => v.company === undefined && v.is_active).at(-1);
  const inUse = own.find((v) => v.is_active && !v.archived) ?? platform;

  const change = useMutation({
    mutationFn: ({ model, body }: { model: ForecastModelVersion; body: OwnModelChange; done: string }) =>
      changeOwnForecastModel(model.method, model.id, body),
    onSuccess: async (_model, { done }) => {
      await queryClient.invalidateQueries({ queryKey: adminKeys.forecastModels });
      message.success(done);
    },
    onError: (e) => message.error(errorText(e)),
  });
  const busy = (v: ForecastModelVersion) => change.isPending && change.variables?.model.id === v.id;
  const phone = usePhone();
  const columns: Array<ColumnType<ForecastModelVersion> & StackedColumn<ForecastModelVersion>> = [
    { title: "Версия", dataIndex: "version", width: 90 },
    {
      title: "Название",
      key: "description",
      render: (_, v) => (
        <Typography.Text
          editable={{
            tooltip: "Переименовать",
            triggerType: ["icon"],
            maxLength: MODEL_DESCRIPTION_MAX,
            onChange: (text) => {
              if (text.trim() && text.trim() !== v.description)
                change.mutate({ model: v, body: { description: text }, done: "Модель переименована" });
            },
          }}
        >
          {v.description}
        </Typography.Text>
      ),
    },
    { title: "Обучена на", key: "rows", width: 220, render: (_, v) => trainedOn(v) },
    {
      title: "Ошибка на проверочных строках",
      key: "rmse",
      width: 150,
      render: (_, v) => (v.training ? `${formatResult(v.training.valid_rmse ?? v.training.train_rmse, 4)} % CH4` : "—"),
    },
    {
      title: "Обучена",
      key: "uploaded",
      width: 170,
      render: (_, v) => <WhenWho at={v.uploaded_at} who={v.uploaded_by} />,
    },
    {
      title: "Прогнозы",
      key: "status",
      width: 330,
      fixed: "right",
      render: (_, v) => (
        <Space wrap>
          {v.archived ? (
            <Tag>В архиве</Tag>
          ) : (v.horizon ?? 0) > 0 ? (
            // A model ahead is picked in the forecast's form with its horizon, never made the active one.
            <Tag>Выбирается в форме прогноза</Tag>
          ) : v.is_active ? (
            <Tag color="green" icon={<CheckCircleOutlined />}>
              Используется в прогнозах
            </Tag>
          ) : (
            <Button
              size="small"
              type="primary"
              loading={busy(v)}
              onClick={() =>
                change.mutate({
                  model: v,
                  body: { is_active: true },
                  done: `Прогнозы компании считаются по модели ${modelName(v)}`,
                })
              }
            >
              Использовать в прогнозах
            </Button>
          )}
          {v.is_active && !v.archived && (
            <Button
              size="small"
              loading={busy(v)}
              onClick={() =>
                change.mutate({ model: v, body: { is_active: false }, done: "Прогнозы компании считаются по модели платформы" })
              }
            >
              Вернуться к модели платформы
            </Button>
          )}
          {v.archived ? (
            <Button
              size="small"
              loading={busy(v)}
              onClick={() => change.mutate({ model: v, body: { archived: false }, done: "Модель возвращена из архива" })}
            >
              Вернуть из архива
            </Button>
          ) : (
            <Popconfirm
              title="Убрать модель в архив?"
              description={
                v.is_active
                  ? "Прогнозы компании будут считаться по модели платформы."
                  : "Модель останется в списке, но не будет использоваться."
              }
              okText="В архив"
              cancelText="Отмена"
              onConfirm={() =>
                change.mutateAsync({ model: v, body: { archived: true }, done: "Модель убрана в архив" }).catch(() => undefined)
              }
            >
              <Button size="small" loading={busy(v)}>
                В архив
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];
  // A phone reads each model as a block of lines; the fixed actions column would cover the rest.

  return (
    <>
      <Typography.Title level={2}>Модели прогноза</Typography.Title>
      {inUse && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={`Прогнозы метана компании (XGBoost) считаются по модели: ${modelName(inUse)}`}
          description="Сохраненные расчеты хранят модель, по которой выполнены, и не пересчитываются при смене модели. Модели компании видны только ее сотрудникам."
        />
      )}
      {isError && <Alert type="error" showIcon title={errorText(error)} style={{ marginBottom: 16 }} />}
      <Card title="Модели компании" size="small" style={{ marginBottom: 16 }}>
        {phone ? (
          <StackedRows rows={own} columns={columns} rowKey={(v) => v.id} empty={EMPTY} testId="own-models" />
        ) : (
          <ListTable<ForecastModelVersion>
            rowKey="id"
            loading={isLoading}
            dataSource={own}
            scroll={{ x: 980 }}
            locale={{ emptyText: EMPTY }}
            columns={columns}
          />
        )}
      </Card>
      {inUse && (
        <Suspense fallback={<Card loading title="Калибровка модели" size="small" style={{ marginBottom: 16 }} />}>
          <CalibrateModelCard modelId={inUse.id} modelTitle={modelName(inUse)} />
        </Suspense>
      )}
      <Suspense fallback={<Card loading title="Обучить модель" size="small" />}>
        <TrainModelCard />
      </Suspense>
    </>
  );
}
