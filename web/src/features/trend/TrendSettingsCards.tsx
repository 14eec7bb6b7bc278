// The «Динамика» screen's base year and targets (docs/user-guide.md): the base year with its reason,
// the offer to recalculate it when its comparable total moved past the significance threshold, and
// the targets with their progress, each added or deleted here.
import { useState } from "react";
import { Alert, Button, Card, Flex, Form, Input, InputNumber, Popconfirm, Progress, Select, Table, Tag, Typography } from "antd";
import { DeleteOutlined } from "@ant-design/icons";
import type { Facility } from "../../api/inventory";
import { formatAmount } from "../../shared/format";
import { useFeedback } from "../../shared/feedback";
import { displayDateTime } from "../../shared/dates";
import { NumericInput } from "../../shared/NumericInput";
import { numericInputProblem, parseNumericInput } from "../../shared/decimals";
import {
  addTarget,
  recalculateBaseYear,
  removeTarget,
  setBaseYear,
  useTrendSettingsWrite,
  type TargetInput,
  type TrendSettings,
  type TrendTarget,
} from "./api";

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The reason a base-year change is made, as the audit keeps it. */
function ReasonInput({
  label,
  placeholder,
  value,
  onChange,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange(value: string): void;
}) {
  return (
    <Input
      aria-label={label}
      placeholder={placeholder}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      style={{ width: 320, maxWidth: "100%" }}
    />
  );
}

export function BaseYearCard({ settings, years }: { settings: TrendSettings; years: number[] }) {
  const write = useTrendSettingsWrite();
  const { message } = useFeedback();
  const [year, setYear] = useState<number | undefined>(settings.base_year?.year);
  const [reason, setReason] = useState("");
  const [recalcReason, setRecalcReason] = useState("");
  const base = settings.base_year;
  const check = settings.base_year_check;

  const save = () =>
    write.mutate(() => setBaseYear({ year: year!, reason, version: settings.version }), {
      onSuccess: () => {
        setReason("");
        message.success("Базовый год сохранен");
      },
      onError: (error) => message.error(errorText(error)),
    });
  const recalculate = () =>
    write.mutate(() => recalculateBaseYear({ reason: recalcReason, version: settings.version }), {
      onSuccess: () => {
        setRecalcReason("");
        message.success("Базовый год пересчитан");
      },
      onError: (error) => message.error(errorText(error)),
    });

  return (
    <Card size="small" title="Базовый год" data-testid="base-year">
      <Flex vertical gap={12}>
        {base ? (
          <Typography.Text>
            {base.year} год: {formatAmount(base.t_co2e, 2)} т CO2-экв. в условиях {base.conditions_year} года. Причина: {base.reason}. Задан{" "}
            {displayDateTime(base.set_at)}, {base.set_by}.
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary">Базовый год не задан.</Typography.Text>
        )}
        {check?.recalculation_offered && (
          <Alert
            type="warning"
            showIcon
            data-testid="base-year-offer"
            title={`Выбросы базового ${check.year} года в сопоставимых условиях изменились на ${formatAmount(check.change_pct, 1)} % (порог ${formatAmount(settings.significance_pct, 1)} %): ${formatAmount(check.recorded_t_co2e, 2)} → ${formatAmount(check.comparable_t_co2e, 2)} т CO2-экв.`}
            description={
              <Flex gap={8} wrap>
                <ReasonInput label="Причина пересчета" placeholder="Причина пересчета" value={recalcReason} onChange={setRecalcReason} />
                <Button type="primary" disabled={!recalcReason.trim()} loading={write.isPending} onClick={recalculate}>
                  Пересчитать базовый год
                </Button>
              </Flex>
            }
          />
        )}
        <Flex gap={8} wrap align="center">
          <Select
            aria-label="Базовый год"
            placeholder="Год"
            value={year}
            options={years.map((y) => ({ value: y, label: String(y) }))}
            onChange={setYear}
            style={{ width: 96 }}
          />
          <ReasonInput label="Причина выбора базового года" placeholder="Почему этот год" value={reason} onChange={setReason} />
          <Button disabled={year === undefined || !reason.trim()} loading={write.isPending} onClick={save}>
            {base ? "Сменить базовый год" : "Задать базовый год"}
          </Button>
        </Flex>
      </Flex>
    </Card>
  );
}

const GASES = { co2e: "CO2-экв.", CH4: "CH4", CO2: "CO2" } as const;
const GAS_OPTIONS = Object.entries(GASES).map(([value, label]) => ({ value, label }));
const SCOPE_OPTIONS = [
  { value: "company", label: "Вся компания" },
  { value: "facility", label: "Площадка" },
];
const KIND_OPTIONS = [
  { value: "absolute", label: "Абсолютная" },
  { value: "per_tonne", label: "На тонну угля" },
];

function progressText(target: TrendTarget): string {
  const p = target.progress;
  if (p.note) return p.note;
  const unit = p.unit ?? "";
  const decimals = target.kind === "per_tonne" ? 6 : 2;
  const latest =
    p.latest_year === undefined
      ? "после базового года данных нет"
      : `${p.latest_year}: ${formatAmount(p.latest_value, decimals)} ${unit} (по прямой — ${formatAmount(p.path_value, decimals)})`;
  return `База ${formatAmount(p.base_value, decimals)} → цель ${formatAmount(p.target_value, decimals)} ${unit}; ${latest}`;
}

type TargetValues = Omit<TargetInput, "version" | "percent"> & { percent: string };

const PERCENT_RULES = { decimals: 1 };

/** The reduction's bounds as the server keeps them (targetBody: more than 0, at most 100 %). */
function percentCheck(text: string | undefined): Promise<void> {
  const typed = (text ?? "").trim();
  if (typed === "") return Promise.reject(new Error("Введите снижение, %"));
  const value = parseNumericInput(typed);
  // A text that is no number is named by the field itself.
  if (numericInputProblem(typed, PERCENT_RULES) || value === undefined) return Promise.resolve();
  if (value <= 0 || value > 100) return Promise.reject(new Error("Снижение — больше 0 и не более 100 %"));
  return Promise.resolve();
}

export function TargetsCard({ settings, facilities }: { settings: TrendSettings; facilities: readonly Facility[] }) {
  const write = useTrendSettingsWrite();
  const { message } = useFeedback();
  const [form] = Form.useForm<TargetValues>();
  const scope = Form.useWatch("scope", form);
  const names = new Map(facilities.map((f) => [f.id, f.name]));

  const add = ({ percent, ...values }: TargetValues) => {
    // A text that is no number has its message under the field already (NumericInput).
    const reduction = parseNumericInput(percent);
    if (numericInputProblem(percent, PERCENT_RULES) || reduction === undefined) return;
    write.mutate(() => addTarget({ ...values, percent: reduction, version: settings.version }), {
      onSuccess: () => {
        form.resetFields();
        message.success("Цель добавлена");
      },
      onError: (error) => message.error(errorText(error)),
    });
  };
  const remove = (target: TrendTarget) =>
    write.mutate(() => removeTarget(target.id, settings.version), {
      onSuccess: () => message.success("Цель удалена"),
      onError: (error) => message.error(errorText(error)),
    });

  return (
    <Card size="small" title="Цели" data-testid="targets">
      <Flex vertical gap={12}>
        {settings.targets.length > 0 && (
          <Table<TrendTarget>
            rowKey="id"
            size="small"
            pagination={false}
            // «Ход» wraps within the card on a desktop (max-content cut it at 1440 px); a phone scrolls.
            scroll={{ x: 720 }}
            dataSource={settings.targets}
            columns={[
              {
                title: "Цель",
                width: 300,
                render: (_, t) => (
                  <Flex vertical>
                    <Typography.Text strong>{t.name}</Typography.Text>
                    <span>
                      −{formatAmount(t.percent, 1)} % {GASES[t.gas]} {t.kind === "per_tonne" ? "на т угля " : ""}к {t.target_year} от{" "}
                      {t.base_year}, {t.scope === "facility" ? (names.get(t.facility ?? "") ?? "площадка") : "вся компания"}
                    </span>
                  </Flex>
                ),
              },
              {
                title: "Выполнено",
                width: 160,
                render: (_, t) =>
                  t.progress.share_achieved_pct === undefined ? (
                    ""
                  ) : (
                    <Flex vertical gap={2}>
                      <Progress percent={Math.max(0, Math.min(100, Number(t.progress.share_achieved_pct.toFixed(1))))} size="small" />
                      {t.progress.on_path ? <Tag color="green">на пути к цели</Tag> : <Tag color="red">отстает от пути</Tag>}
                    </Flex>
                  ),
              },
              { title: "Ход", render: (_, t) => progressText(t) },
              {
                title: "",
                width: 48,
                render: (_, t) => (
                  <Popconfirm
                    title={`Удалить цель «${t.name}»?`}
                    description="Цель и ее путь исчезнут с графика «Динамика»"
                    okText="Удалить"
                    okButtonProps={{ danger: true }}
                    cancelText="Отмена"
                    onConfirm={() => remove(t)}
                  >
                    <Button aria-label={`Удалить цель ${t.name}`} icon={<DeleteOutlined />} type="text" />
                  </Popconfirm>
                ),
              },
            ]}
          />
        )}
        <Form
          form={form}
          layout="inline"
          onFinish={add}
          initialValues={{ gas: "co2e", scope: "company", kind: "absolute", percent: "" }}
          style={{ rowGap: 8 }}
        >
          <Form.Item name="name" rules={[{ required: true, message: "Введите название" }]}>
            <Input placeholder="Название цели" aria-label="Название цели" style={{ width: 220 }} />
          </Form.Item>
          <Form.Item name="gas">
            <Select aria-label="Газ" style={{ width: 120 }} options={GAS_OPTIONS} />
          </Form.Item>
          <Form.Item name="scope">
            <Select aria-label="Охват" style={{ width: 150 }} options={SCOPE_OPTIONS} />
          </Form.Item>
          {scope === "facility" && (
            <Form.Item name="facility" rules={[{ required: true, message: "Выберите площадку" }]}>
              <Select
                aria-label="Площадка цели"
                placeholder="Площадка"
                style={{ width: 200 }}
                options={facilities.map((f) => ({ value: f.id, label: f.name }))}
              />
            </Form.Item>
          )}
          <Form.Item name="kind">
            <Select aria-label="Вид цели" style={{ width: 150 }} options={KIND_OPTIONS} />
          </Form.Item>
          <Form.Item name="base_year" rules={[{ required: true, message: "Базовый год" }]}>
            <InputNumber aria-label="Базовый год цели" placeholder="Базовый год" style={{ width: 120 }} />
          </Form.Item>
          <Form.Item name="target_year" rules={[{ required: true, message: "Год цели" }]}>
            <InputNumber aria-label="Год цели" placeholder="Год цели" style={{ width: 110 }} />
          </Form.Item>
          {/* Typed as it reads, never cut to a bound: a share over 100 % is said so, not saved as 100. */}
          <Form.Item
            name="percent"
            label="Снижение"
            htmlFor="target-percent"
            rules={[{ validator: (_, text: string) => percentCheck(text) }]}
          >
            <NumericInput id="target-percent" decimals={PERCENT_RULES.decimals} unit="%" placeholder="например 30" style={{ width: 170 }} />
          </Form.Item>
          <Form.Item>
            <Button htmlType="submit" type="primary" loading={write.isPending}>
              Добавить цель
            </Button>
          </Form.Item>
        </Form>
      </Flex>
    </Card>
  );
}
