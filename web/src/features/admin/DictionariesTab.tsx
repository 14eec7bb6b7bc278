// «Справочники»: a coefficient is never overwritten. A change is a new version of the item with the
// date from which it applies and the reason; calculations already stored keep the version they used.
import { useState } from "react";
import { useUrlQuery } from "../../shared/urlState";
import { Button, Checkbox, DatePicker, Flex, Form, Input, Modal, Select, Space, Typography } from "antd";
import { ListTable } from "../../shared/LazyTable";
import { EditOutlined, HistoryOutlined } from "@ant-design/icons";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import dayjs, { type Dayjs } from "dayjs";
import { typedClient } from "../../api/client";
import type { DictionaryEntry, Verification } from "@server/contract";
import { COEFFICIENT_REASON_MAX, UNCERTAINTY_SOURCE_MAX } from "@server/contract/schemas/limits";
import { adminKeys, changeCoefficient, errorText, fieldError, useDictionaryNames } from "../../api/admin";
import { formatStoredIn, numberText, numericInputProblem, parseNumericInput, YEAR_UNIT } from "../../shared/decimals";
import { DATE_FIELD_FORMATS, displayDate } from "../../shared/dates";
import { NumericInput } from "../../shared/NumericInput";
import type { Distribution } from "@core/uncertainty-core";
import { DISTRIBUTION_OPTIONS, uncertaintyText } from "../../shared/uncertainty/texts";
import { useFeedback } from "../../shared/feedback";
import { actionsColumn, ChosenList } from "./listParts";

/** dictionary/, typed from the server's route declarations (functions/src/http/dictionaries.ts). */
const dictionaries = typedClient("dictionaries");

interface Dictionary {
  name: string;
  title: string;
  labels: Record<string, string>;
  results: DictionaryEntry[];
}

// Users read only a value's source; the admin also sees, in words, whether a default still
// awaits checking against the official text (the `verification` field of the entry).
const VERIFICATION_TEXT: Record<Verification, string> = {
  verified: "сверено с источником",
  transcription: "по вторичной копии документа, ожидает сверки с официальным текстом",
  recalled: "требует проверки по первоисточнику",
  assumption: "допущение методики, нормативного значения нет",
  changed: "изменено администратором",
};

type HistoryEntry = DictionaryEntry & { changed_at: string; changed_by: string; reason: string };

const fieldsOf = (entry: DictionaryEntry) => Object.keys(entry.units ?? {});
const show = (value: unknown, unit?: string) => (typeof value === "number" ? formatStoredIn(value, unit) : String(value ?? ""));
/** The unit written after a value; a year needs none («Действует с отчетного года = 1990»). */
const unitAfter = (unit: string | undefined) => (unit === YEAR_UNIT ? "" : (unit ?? ""));

function useDictionaryItems(name: string | undefined) {
  return useQuery({
    queryKey: ["dictionary", name],
    queryFn: (): Promise<Dictionary> => dictionaries((c) => c[":name"].$get({ param: { name: name! } })),
    enabled: Boolean(name),
  });
}

// A reference value carries its source's precision (0,003149), not the display setting's 0..4.
const COEFFICIENT_RULES = { decimals: 10 };

interface ChangeForm {
  field: string;
  /** As typed: «0,668» or «0.668». */
  value: string;
  effective_from: Dayjs;
  reason: string;
  /** The value's uncertainty (docs/methodology.md, Uncertainty): on, −%, +% as typed, distribution, source. */
  u_on: boolean;
  u_lower: string;
  u_upper: string;
  u_distribution: Distribution;
  u_source: string;
}

/** The uncertainty fields of the form for `field` of `entry`. */
function uncertaintyValues(entry: DictionaryEntry, field: string) {
  const u = entry.uncertainty?.[field];
  return {
    u_on: Boolean(u),
    u_lower: u ? numberText(u.lower_pct) : "",
    u_upper: u ? numberText(u.upper_pct) : "",
    u_distribution: u?.distribution ?? ("normal" as Distribution),
    u_source: u?.source ?? "",
  };
}

/** absent: unchanged (no uncertainty before, none now); null: removed. */
function uncertaintyBody(entry: DictionaryEntry, values: ChangeForm) {
  if (!values.u_on) return entry.uncertainty?.[values.field] ? { uncertainty: null } : {};
  return {
    uncertainty: {
      // Required by the form; a text that is no number goes out as nothing, and the server's refusal
      // (uncertainty.lower_pct: …) is shown.
      lower_pct: parseNumericInput(values.u_lower)!,
      upper_pct: parseNumericInput(values.u_upper)!,
      distribution: values.u_distribution,
      ...(values.u_source.trim() ? { source: values.u_source.trim() } : {}),
    },
  };
}

type Labels = Record<string, string>;
const labelOf = (labels: Labels, field: string) => labels[field] ?? field;

/** What the change and the history dialogs of one entry are given. */
type EntryDialogProps = { dictionary: string; labels: Labels; entry: DictionaryEntry; onClose: () => void };

function ChangeDialog({ dictionary, labels, entry, onClose }: EntryDialogProps) {
  const [form] = Form.useForm<ChangeForm>();
  const field = Form.useWatch("field", form);
  const uncertaintyOn = Form.useWatch("u_on", form);
  const queryClient = useQueryClient();
  const { message } = useFeedback();
  const save = useMutation({
    mutationFn: (values: ChangeForm) =>
      changeCoefficient(dictionary, entry.id, {
        field: values.field,
        // Sent only once the form found it a number (numericInputProblem).
        value: parseNumericInput(values.value)!,
        effective_from: values.effective_from.format("YYYY-MM-DD"),
        reason: values.reason,
        version: entry.version,
        ...uncertaintyBody(entry, values),
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ["dictionary"] });
      await queryClient.invalidateQueries({ queryKey: adminKeys.auditAll });
      message.success("Создана новая версия коэффициента");
      onClose();
    },
    onError: (error) => {
      const problem = fieldError(error, ["field", "value", "effective_from", "reason"] as const);
      // uncertainty.lower_pct: … is shown where the whole message goes.
      if (problem) form.setFields([problem]);
      else message.error(errorText(error));
    },
  });
  const first = fieldsOf(entry)[0];

  return (
    <Modal
      open
      title={`Изменение коэффициента: ${entry.name}`}
      okText="Сохранить новую версию"
      cancelText="Отмена"
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
    >
      <Typography.Paragraph type="secondary">
        Текущая версия {entry.version}, действует с {displayDate(entry.effective_from)}. Расчеты, уже сохраненные с этой версией, не
        изменятся.
      </Typography.Paragraph>
      <Form<ChangeForm>
        form={form}
        layout="vertical"
        initialValues={{
          field: first,
          value: numberText(entry[first] as number),
          effective_from: dayjs(),
          ...uncertaintyValues(entry, first),
        }}
        onFinish={(values) => {
          // The field already says why it is not a number; nothing is sent until it is one.
          if (!numericInputProblem(values.value, COEFFICIENT_RULES)) save.mutate(values);
        }}
        onValuesChange={(changed) => {
          if (changed.field)
            form.setFieldsValue({ value: numberText(entry[changed.field] as number), ...uncertaintyValues(entry, changed.field) });
        }}
      >
        <Form.Item label="Коэффициент" name="field" rules={[{ required: true }]}>
          <Select options={fieldsOf(entry).map((f) => ({ value: f, label: `${labelOf(labels, f)}, ${entry.units[f]}` }))} />
        </Form.Item>
        <Form.Item
          label="Новое значение"
          name="value"
          extra={field ? `Сейчас: ${show(entry[field], entry.units[field])} ${unitAfter(entry.units[field])}`.trim() : undefined}
          rules={[{ required: true, whitespace: true, message: "Укажите значение" }]}
        >
          <NumericInput decimals={COEFFICIENT_RULES.decimals} unit={field ? entry.units[field] : undefined} style={{ width: 260 }} />
        </Form.Item>
        <Form.Item name="u_on" valuePropName="checked" style={{ marginBottom: 8 }}>
          <Checkbox>Неопределенность значения (95 % интервал)</Checkbox>
        </Form.Item>
        {uncertaintyOn && (
          <Flex gap={8} wrap>
            <Form.Item label="Вниз" name="u_lower" rules={[{ required: true, whitespace: true, message: "Укажите −%" }]}>
              <NumericInput decimals={2} unit="−%" style={{ width: 120 }} />
            </Form.Item>
            <Form.Item label="Вверх" name="u_upper" rules={[{ required: true, whitespace: true, message: "Укажите +%" }]}>
              <NumericInput decimals={2} unit="+%" style={{ width: 120 }} />
            </Form.Item>
            <Form.Item label="Распределение" name="u_distribution">
              <Select options={DISTRIBUTION_OPTIONS} style={{ width: 170 }} />
            </Form.Item>
            <Form.Item
              label="Источник неопределенности"
              name="u_source"
              style={{ flex: "1 1 100%" }}
              extra="Если пусто — причина изменения"
            >
              <Input maxLength={UNCERTAINTY_SOURCE_MAX} />
            </Form.Item>
          </Flex>
        )}
        <Form.Item label="Действует с" name="effective_from" rules={[{ required: true, message: "Укажите дату" }]}>
          <DatePicker format={DATE_FIELD_FORMATS} placeholder="ДД.ММ.ГГГГ" />
        </Form.Item>
        <Form.Item label="Причина изменения" name="reason" rules={[{ required: true, whitespace: true, message: "Укажите причину" }]}>
          <Input.TextArea autoSize={{ minRows: 2 }} maxLength={COEFFICIENT_REASON_MAX} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function HistoryDialog({ dictionary, labels, entry, onClose }: EntryDialogProps) {
  const history = useQuery({
    queryKey: ["dictionary", dictionary, entry.id, "history"],
    queryFn: () => dictionaries((c) => c[":name"][":id"].history.$get({ param: { name: dictionary, id: String(entry.id) } })),
  });
  const fields = fieldsOf(entry);
  return (
    <Modal open title={`История: ${entry.name}`} footer={null} onCancel={onClose} width={900}>
      <ListTable<HistoryEntry>
        rowKey="version"
        loading={history.isLoading}
        dataSource={history.data?.results ?? []}
        columns={[
          { title: "Версия", dataIndex: "version", width: 80 },
          { title: "Действует с", dataIndex: "effective_from", width: 120 },
          ...fields.map((f) => ({ title: labelOf(labels, f), key: f, render: (_: unknown, v: HistoryEntry) => show(v[f], v.units?.[f]) })),
          // The seeded versions came with the platform: no person to name.
          {
            title: "Кто",
            dataIndex: "changed_by",
            render: (who: string) => (who === "system" ? "поставляется с системой" : who),
          },
          { title: "Причина", dataIndex: "reason" },
        ]}
      />
    </Modal>
  );
}

export function DictionariesTab() {
  const names = useDictionaryNames();
  // The dictionary and its page sit in the address, like every list of the app.
  const { params, update } = useUrlQuery();
  const name = params.get("dictionary") ?? undefined;
  const setName = (next: string) => update({ dictionary: next, page: undefined });
  const items = useDictionaryItems(name);
  const [dialog, setDialog] = useState<{ kind: "change" | "history"; entry: DictionaryEntry } | null>(null);
  const labels = items.data?.labels ?? {};

  return (
    <>
      <Select
        style={{ width: 480, marginBottom: 16 }}
        placeholder="Выберите справочник"
        aria-label="Справочник"
        loading={names.isLoading}
        value={name}
        onChange={setName}
        options={(names.data?.results ?? []).map((d) => ({ value: d.name, label: d.title }))}
        showSearch={{ optionFilterProp: "label" }}
      />
      <ChosenList<DictionaryEntry>
        chosen={Boolean(name)}
        list={items}
        empty="В справочнике нет записей"
        choose="Выберите справочник"
        columns={[
          { title: "№", dataIndex: "id", width: 60 },
          { title: "Наименование", dataIndex: "name" },
          {
            title: "Коэффициенты",
            key: "values",
            render: (_, entry) => (
              <Space orientation="vertical" size={0}>
                {fieldsOf(entry).map((f) => (
                  <span key={f}>
                    {labelOf(labels, f)} = {show(entry[f], entry.units[f])}{" "}
                    <Typography.Text type="secondary">{unitAfter(entry.units[f])}</Typography.Text>
                    <br />
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {entry.sources[f]}
                      {entry.verification?.[f] ? ` — ${VERIFICATION_TEXT[entry.verification[f]]}` : ""}
                    </Typography.Text>
                    {entry.uncertainty?.[f] && (
                      <>
                        <br />
                        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                          Неопределенность: {uncertaintyText(entry.uncertainty[f])} — {entry.uncertainty[f].source}
                        </Typography.Text>
                      </>
                    )}
                  </span>
                ))}
              </Space>
            ),
          },
          { title: "Версия", dataIndex: "version", width: 80 },
          { title: "Действует с", dataIndex: "effective_from", width: 120 },
          actionsColumn(110, (entry) => (
            <Space>
              <Button
                icon={<EditOutlined />}
                title="Изменить коэффициент"
                aria-label={`Изменить коэффициент ${entry.id}`}
                disabled={fieldsOf(entry).length === 0}
                onClick={() => setDialog({ kind: "change", entry })}
              />
              <Button
                icon={<HistoryOutlined />}
                title="История"
                aria-label={`История ${entry.id}`}
                onClick={() => setDialog({ kind: "history", entry })}
              />
            </Space>
          )),
        ]}
      />
      {name && dialog?.kind === "change" && (
        <ChangeDialog dictionary={name} labels={labels} entry={dialog.entry} onClose={() => setDialog(null)} />
      )}
      {name && dialog?.kind === "history" && (
        <HistoryDialog dictionary={name} labels={labels} entry={dialog.entry} onClose={() => setDialog(null)} />
      )}
    </>
  );
}
