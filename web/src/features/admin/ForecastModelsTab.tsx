// «Модели прогноза»: the XGBoost and LightGBM models behind the methane forecast (regres_methane).
// An upload is parsed and test-predicted by the server before it is stored (a wrong library, a file
// that is not a model, over 20 MB or not text is refused with the reason); every version stays
// stored, and one per method is active — the one new forecasts use. Calculations already made keep
// the version they were made with.
import { fileSize } from "@server/contract";
import { MODEL_DESCRIPTION_MAX } from "@server/contract/schemas/limits";
import { useState } from "react";
import { Alert, Button, Card, Checkbox, Form, Input, Popconfirm, Select, Space, Tag, Typography, Upload } from "antd";
import { ListTable } from "../../shared/LazyTable";
import { CheckCircleOutlined, UploadOutlined } from "@ant-design/icons";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, routePath } from "../../api/client";
import {
  activateForecastModel,
  adminKeys,
  errorText,
  fieldError,
  useForecastModelList,
  useUploadLimits,
  type ForecastMethod,
  type ForecastModelVersion,
} from "../../api/admin";
import { useFeedback } from "../../shared/feedback";
import { TrainModelCard } from "../../shared/TrainModelCard";
import { modelFileProblem } from "./fileChecks";
import { WhenWho } from "../../shared/WhenWho";

export const METHOD_LABELS: Record<ForecastMethod, string> = { xgboost: "XGBoost", lightgbm: "LightGBM" };
const LIBRARY_LABELS: Record<string, string> = METHOD_LABELS;
const METHODS = Object.keys(METHOD_LABELS) as ForecastMethod[];

interface UploadForm {
  method: ForecastMethod;
  description?: string;
  activate: boolean;
}

/** The model list, and the change log, which records every upload and activation. */
function useInvalidate() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminKeys.forecastModels }),
      queryClient.invalidateQueries({ queryKey: adminKeys.auditAll }),
    ]);
}

function UploadCard() {
  const limits = useUploadLimits();
  const [form] = Form.useForm<UploadForm>();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string>();
  const { message } = useFeedback();
  const invalidate = useInvalidate();
  const upload = useMutation({
    mutationFn: async (values: UploadForm) => {
      const body = new FormData();
      body.append("file", file!);
      body.append("description", values.description?.trim() ?? "");
      body.append("activate", values.activate ? "true" : "false");
      const path = await routePath("forecastModels", (c) => c[":method"].$path({ param: { method: values.method } }));
      return api.upload<ForecastModelVersion>("POST", path, body);
    },
    onSuccess: async (model) => {
      await invalidate();
      message.success(`${METHOD_LABELS[model.method]}: загружена версия ${model.version}${model.is_active ? ", она активна" : ""}`);
      form.resetFields(["description", "activate"]);
      setFile(null);
    },
  });
  // The server's refusal: «file: …» (another library, not a model) under the file; anything else
  // (over 20 MB, not text, no rights, no connection) above the button.
  const serverFileError = upload.isError ? fieldError(upload.error, ["file"] as const)?.errors[0] : undefined;
  const otherError = upload.isError && !serverFileError ? errorText(upload.error) : undefined;
  const shownFileError = fileError ?? serverFileError;

  return (
    <Card title="Загрузить новую версию" size="small" style={{ marginBottom: 16 }}>
      <Form<UploadForm>
        form={form}
        layout="vertical"
        initialValues={{ method: "xgboost", activate: false }}
        onValuesChange={() => upload.reset()}
        onFinish={(values) => {
          if (!file) {
            setFileError("Прикрепите файл модели");
            return;
          }
          setFileError(undefined);
          upload.mutate(values);
        }}
      >
        <Space wrap align="start" size={16}>
          <Form.Item label="Метод" name="method" rules={[{ required: true }]}>
            <Select style={{ width: 160 }} options={METHODS.map((m) => ({ value: m, label: METHOD_LABELS[m] }))} />
          </Form.Item>
          <Form.Item
            label={`Файл модели (XGBoost JSON или LightGBM text${limits.data ? `, до ${fileSize(limits.data.model_max_bytes)}` : ""})`}
            required
            validateStatus={shownFileError ? "error" : undefined}
            help={shownFileError}
          >
            <Upload
              accept=".json,.txt,application/json,text/plain"
              maxCount={1}
              beforeUpload={(chosen) => {
                upload.reset();
                const problem = modelFileProblem(chosen, limits.data?.model_max_bytes ?? Number.POSITIVE_INFINITY);
                setFileError(problem);
                setFile(problem ? null : chosen);
                return false;
              }}
              onRemove={() => {
                setFile(null);
                setFileError(undefined);
              }}
              fileList={file ? [{ uid: "model", name: `${file.name} (${fileSize(file.size)})`, status: "done" }] : []}
            >
              <Button icon={<UploadOutlined />}>Выбрать файл</Button>
            </Upload>
          </Form.Item>
        </Space>
        <Form.Item label="Описание" name="description">
          <Input.TextArea
            autoSize={{ minRows: 2 }}
            maxLength={MODEL_DESCRIPTION_MAX}
            placeholder="Например: обучена на данных 2025 года, RMSE 0,11 %"
          />
        </Form.Item>
        <Form.Item name="activate" valuePropName="checked">
          <Checkbox>сделать активной (новые прогнозы этим методом будут считаться по ней)</Checkbox>
        </Form.Item>
        {otherError && <Alert type="error" showIcon role="alert" title={otherError} style={{ marginBottom: 16 }} />}
        <Button type="primary" htmlType="submit" icon={<UploadOutlined />} loading={upload.isPending}>
          Загрузить
        </Button>
      </Form>
    </Card>
  );
}

function VersionsTable({ method, versions, loading }: { method: ForecastMethod; versions: ForecastModelVersion[]; loading: boolean }) {
  const { message } = useFeedback();
  const invalidate = useInvalidate();
  const activate = useMutation({
    mutationFn: (model: ForecastModelVersion) => activateForecastModel(method, model.id),
    onSuccess: async (model) => {
      await invalidate();
      message.success(`${METHOD_LABELS[method]}: активна версия ${model.version}`);
    },
    onError: (error) => message.error(errorText(error)),
  });
  const newestFirst = [...versions].sort((a, b) => b.version - a.version);

  return (
    <ListTable<ForecastModelVersion>
      rowKey="id"
      loading={loading}
      dataSource={newestFirst}
      scroll={{ x: 1040 }}
      locale={{ emptyText: "Моделей нет" }}
      columns={[
        { title: "Версия", dataIndex: "version", width: 70 },
        {
          title: "Библиотека",
          key: "library",
          width: 120,
          render: (_, v) => `${LIBRARY_LABELS[v.library] ?? v.library} ${v.library_version}`,
        },
        { title: "Целевая функция", dataIndex: "objective", width: 130 },
        { title: "Деревьев", dataIndex: "num_trees", width: 90 },
        { title: "Признаки", key: "features", width: 140, render: (_, v) => v.feature_names.join(", ") },
        {
          title: "Файл и описание",
          key: "file",
          render: (_, v) => (
            <Space orientation="vertical" size={0}>
              <Typography.Text style={{ wordBreak: "break-all" }}>{v.file_name}</Typography.Text>
              <Typography.Text type="secondary">{v.description || "Без описания"}</Typography.Text>
              {v.engine_reason && <Typography.Text type="secondary">Вычисление: {v.engine_reason}</Typography.Text>}
            </Space>
          ),
        },
        {
          title: "Загружена",
          key: "uploaded",
          width: 180,
          render: (_, v) => <WhenWho at={v.uploaded_at} who={v.uploaded_by === "system" ? "поставляется с системой" : v.uploaded_by} />,
        },
        {
          title: "Статус",
          key: "status",
          width: 160,
          fixed: "right",
          render: (_, v) =>
            v.is_active ? (
              <Tag color="green" icon={<CheckCircleOutlined />}>
                Активна
              </Tag>
            ) : (
              <Popconfirm
                title={`Сделать активной версию ${v.version}?`}
                description="Новые прогнозы этим методом будут считаться по ней; сохраненные расчеты не изменятся."
                okText="Сделать активной"
                cancelText="Отмена"
                onConfirm={() => activate.mutateAsync(v).catch(() => undefined)}
              >
                <Button
                  loading={activate.isPending && activate.variables?.id === v.id}
                  aria-label={`Сделать активной версию ${v.version} ${METHOD_LABELS[method]}`}
                >
                  Сделать активной
                </Button>
              </Popconfirm>
            ),
        },
      ]}
    />
  );
}

export function ForecastModelsTab() {
  const { data, isLoading, isError, error } = useForecastModelList();
  return (
    <>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        title="Прогноз метана считается по активной модели выбранного метода"
        description="Перед сохранением сервер разбирает файл и делает пробный прогноз: файл другой библиотеки или не модель не примется. Загруженные версии не удаляются. Сохраненные расчеты хранят версию модели, по которой выполнены, и не пересчитываются при смене активной модели."
      />
      <TrainModelCard />
      <UploadCard />
      {isError && <Alert type="error" showIcon title={errorText(error)} style={{ marginBottom: 16 }} />}
      {METHODS.map((method) => (
        <section key={method} aria-label={`Модели ${METHOD_LABELS[method]}`} data-method={method} style={{ marginBottom: 24 }}>
          <Typography.Title level={4}>{METHOD_LABELS[method]}</Typography.Title>
          <VersionsTable method={method} loading={isLoading} versions={data?.results.find((r) => r.method === method)?.versions ?? []} />
        </section>
      ))}
    </>
  );
}
