// The create/edit form of the file-based types (filling_blanks, sensitivity), drawn from the
// registry: the name, the column names (text inputs), the file with its template, and the
// settings with their defaults and units (sensitivity: ρ, the GWP set, k_tr — an illustrative
// value, D6 — δ and the diesel factor). The file goes with the form only when one is chosen.
import { useState } from "react";
import { Col, Form, Input, Row, Select, Typography } from "antd";
import { REGISTRY, type NumberField } from "@core/registry";
import { NumericInput } from "../../shared/NumericInput";
import { formatStored, numericInputProblem } from "../../shared/decimals";
import { useInputDecimals } from "../../shared/useInputDecimals";
import type { ApiError } from "../../api/client";
import { sendBody, useSaveCalculation } from "../../api/calculations";
import { routeDetail } from "../../shared/detail";
import type { KindFormProps } from "../../shared/calculationKindRegistry";
import { FileField } from "../../shared/FileField";
import { FormFooter, NameField, useSaveErrors } from "../../shared/FormParts";
import {
  GWP_BY_YEAR,
  currentGwpSet,
  gwpByYearLabel,
  initialSeriesState,
  seriesErrors,
  seriesLayout,
  uploadHint,
  seriesRequest,
  type SeriesState,
  type SeriesType,
} from "./series";
import { useFeedback } from "../../shared/feedback";
import { LIMITS } from "@server/contract";

const fieldId = (name: string) => `calc-field-${name}`;

/** The symbols of the sensitivity formulas (docs/methodology.md, Calculation types; D6) beside their settings' labels. */
const SYMBOLS: Record<string, string> = { rho: "ρ", k_tr: "kтр", delta: "δ" };

/** Hints under fields the registry alone does not explain. */
const HINTS: Record<string, string> = {
  name_value: "Заголовок столбца файла со значениями ряда, например CH4 или «Добыча»",
  name_element: "Если в файле несколько рядов (шахт, источников), укажите столбец с их названиями",
  k_tr: "Условное значение, принятое в методике расчета: 1 кг дизельного топлива на 1 т угля × 3,149. Если в файле есть столбец «Расход дизельного топлива на транспорт, т», выбросы транспорта считаются по нему.",
  delta: "Относительное приращение фактора при расчете коэффициентов чувствительности (0,1 = 10 %)",
};

/** The dialog's form props (shared/calculationKindRegistry.ts), for a series type. */
type Props = Omit<KindFormProps, "type"> & { type: SeriesType };

export function SeriesForm({ type, mode, projectId, gwpEntries, gwpInForce, stored, onDone, onReload }: Props) {
  const layout = seriesLayout(type);
  const [state, setState] = useState<SeriesState>(() => initialSeriesState(type, stored));
  const errors = useSaveErrors();
  const { submitted, serverErrors, topError, clear } = errors;
  const decimals = useInputDecimals(mode);
  const save = useSaveCalculation();
  const { message } = useFeedback();

  // Settings keep their own precision (k_tr has 6 decimals) when it exceeds the decimals setting.
  const settingDecimals = (field: NumberField) => Math.max(decimals, field.decimals);
  // What NumericInput already says under a setting: the form neither repeats it nor sends.
  const inputProblems = layout.settings.filter((f) => numericInputProblem(state.settings[f.name] ?? "", { decimals: settingDecimals(f) }));
  const localErrors = submitted ? seriesErrors(type, state, mode) : {};
  const status = (target: string) => {
    if (inputProblems.some((f) => f.name === target)) return { validateStatus: "error" as const };
    const error = serverErrors[target] ?? localErrors[target];
    return error ? { validateStatus: "error" as const, help: error } : {};
  };

  const fieldNames = [...layout.texts.map((f) => f.name), ...layout.settings.map((f) => f.name), "gwp_set", "gwp_ch4"];
  const showServerError = (error: ApiError, sentFile: boolean) => {
    const routed = routeDetail(error.status, error, fieldNames, sentFile);
    const target = routed.target === "gwp_ch4" ? "gwp_set" : routed.target;
    errors.refused(target, routed.message, error.status);
  };

  const submit = () => {
    errors.start();
    const problems = seriesErrors(type, state, mode);
    if (problems.name) console.warn("please enter calculation name");
    if (Object.keys(problems).length > 0 || inputProblems.length > 0) return;
    const body = seriesRequest(type, mode, state, { projectId, stored, gwpInForce });
    save.mutate(() => sendBody(type, body, mode === "edit" ? stored?.id : undefined), {
      onSuccess: () => {
        message.success(mode === "edit" ? "Расчет сохранен" : "Расчет создан");
        onDone();
      },
      onError: (error) => showServerError(error, body.kind === "form"),
    });
  };

  const settingInput = (field: NumberField) => (
    <Form.Item
      key={field.name}
      label={SYMBOLS[field.name] ? `${field.label}, ${SYMBOLS[field.name]}` : field.label}
      htmlFor={fieldId(field.name)}
      extra={HINTS[field.name] ?? (field.default !== undefined ? `По умолчанию ${formatStored(field.default)}` : undefined)}
      {...status(field.name)}
    >
      <NumericInput
        id={fieldId(field.name)}
        value={state.settings[field.name] ?? ""}
        decimals={settingDecimals(field)}
        unit={field.unit}
        onChange={(text) => {
          setState({ ...state, settings: { ...state.settings, [field.name]: text } });
          clear(field.name);
        }}
      />
    </Form.Item>
  );

  const storedGwp = stored?.coefficients.gwp_ch4;
  return (
    <Form layout="vertical" onFinish={submit} name="series" requiredMark={false}>
      <Typography.Paragraph type="secondary" style={{ marginTop: -4 }}>
        {REGISTRY[type].title}
      </Typography.Paragraph>
      <NameField
        value={state.name}
        onChange={(name) => {
          setState({ ...state, name });
          clear("name");
        }}
        {...status("name")}
      />
      {layout.texts.length > 0 && (
        <Row gutter={16}>
          {layout.texts.map((field) => (
            <Col xs={24} sm={12} key={field.name}>
              <Form.Item
                label={field.optional ? `${field.label} (необязательно)` : field.label}
                htmlFor={fieldId(field.name)}
                extra={HINTS[field.name]}
                {...status(field.name)}
              >
                <Input
                  id={fieldId(field.name)}
                  value={state.texts[field.name] ?? ""}
                  maxLength={LIMITS.text.calculationText}
                  onChange={(event) => {
                    setState({ ...state, texts: { ...state.texts, [field.name]: event.target.value } });
                    clear(field.name);
                  }}
                />
              </Form.Item>
            </Col>
          ))}
        </Row>
      )}
      <Form.Item
        label={mode === "edit" ? `${layout.file.label} (необязательно)` : layout.file.label}
        htmlFor="calc-file"
        extra={uploadHint(type)}
        {...status("file_data")}
      >
        <FileField
          id="calc-file"
          type={type}
          file={state.file}
          stored={stored}
          preview={{ projectId, fields: state.texts }}
          keepHint="Без нового файла расчет пересчитывается по сохраненному."
          onChange={(file) => {
            setState({ ...state, file });
            clear("file_data");
          }}
        />
      </Form.Item>
      {(layout.settings.length > 0 || layout.gwp) && (
        <>
          <Typography.Title level={5}>Параметры расчета</Typography.Title>
          <Row gutter={16}>
            {layout.gwp && (
              <Col xs={24} sm={12}>
                <Form.Item label={`${layout.gwp.label}, ${layout.gwp.unit}`} htmlFor="calc-gwp" {...status("gwp_set")}>
                  <Select<number>
                    id="calc-gwp"
                    value={currentGwpSet(state, stored)}
                    placeholder={storedGwp ? `Как в расчете: ${formatStored(storedGwp.value)}` : "Выберите набор ПГП"}
                    options={[
                      { label: gwpByYearLabel(gwpEntries, gwpInForce), value: GWP_BY_YEAR },
                      ...gwpEntries.map((e) => ({ label: `${e.name}: ${formatStored(e.gwp_ch4)}`, value: e.id })),
                    ]}
                    onChange={(id) => {
                      setState({ ...state, gwpSet: id });
                      clear("gwp_set");
                    }}
                  />
                </Form.Item>
              </Col>
            )}
            {layout.settings.map((field) => (
              <Col xs={24} sm={12} key={field.name}>
                {settingInput(field)}
              </Col>
            ))}
          </Row>
        </>
      )}
      <FormFooter mode={mode} error={topError} saving={save.isPending} onCancel={onDone} onReload={onReload} />
    </Form>
  );
}
