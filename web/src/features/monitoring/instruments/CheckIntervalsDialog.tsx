// D94: the mine's own check intervals — per sensor kind and role, each shift or
// every N days — with the document of the mine that sets them (its АГК project, a schedule). No act read
// binds an interval, so none is assumed; the version read is sent back (409 when another changed them).
import { useState } from "react";
import { Alert, Button, Flex, Input, InputNumber, Modal, Select, Typography } from "antd";
import { LIMITS } from "@server/contract";
import { isApiError } from "../../../api/client";
import { useSaveCheckIntervals, type CheckIntervalsView } from "../../../api/instruments";
import { kindOptions, roleOptions } from "../texts/sensorTexts";
import { NAMED_OPTIONS } from "../../../shared/namedOptions";

type Rule = { kind: string | null; role: string | null; per: "shift" | "days"; days: number | null };
const ANY = "any";
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export default function CheckIntervalsDialog({
  facility,
  intervals,
  onClose,
}: {
  facility: string;
  intervals: CheckIntervalsView;
  onClose: () => void;
}) {
  const [rules, setRules] = useState<Rule[]>(intervals.rules.map((r) => ({ ...r })));
  const [source, setSource] = useState(intervals.version === 0 ? "" : intervals.source);
  const save = useSaveCheckIntervals(facility);
  const change = (i: number, patch: Partial<Rule>) => setRules(rules.map((r, k) => (k === i ? { ...r, ...patch } : r)));
  const refusal = save.isError ? (isApiError(save.error) ? save.error.detail : String(save.error)) : undefined;
  return (
    <Modal
      open
      width={760}
      title="Интервалы проверок датчиков"
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose}>
          Отмена
        </Button>,
        <Button
          key="save"
          type="primary"
          loading={save.isPending}
          onClick={() =>
            save.mutate(
              {
                rules: rules.map((r) => ({
                  kind: r.kind as never,
                  role: r.role as never,
                  per: r.per,
                  days: r.per === "days" ? r.days : null,
                })),
                source: source.trim(),
                version: intervals.version,
              },
              { onSuccess: onClose },
            )
          }
        >
          Сохранить
        </Button>,
      ]}
    >
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">
          Интервалы задает проект АГК шахты или ее график: обязательного интервала в прочитанных актах не найдено. Действует самое точное
          правило: вид и роль, затем вид, затем роль, затем любое.
        </Typography.Text>
        <Flex vertical gap={4}>
          <Typography.Text strong>Документ шахты</Typography.Text>
          <Input
            aria-label="Документ шахты"
            placeholder="Проект АГК шахты, раздел …"
            value={source}
            onChange={(e) => setSource(e.target.value)}
            maxLength={LIMITS.sensorChecks.intervalSource}
          />
        </Flex>
        {rules.map((r, i) => (
          <Flex key={i} wrap gap={8} align="center">
            <Select
              aria-label={`Вид датчика, правило ${i + 1}`}
              style={{ minWidth: 220 }}
              value={r.kind ?? ANY}
              onChange={(v) => change(i, { kind: v === ANY ? null : v })}
              options={[{ value: ANY, label: "Любой вид" }, ...kindOptions]}
              {...NAMED_OPTIONS}
            />
            <Select
              aria-label={`Роль, правило ${i + 1}`}
              style={{ minWidth: 170 }}
              value={r.role ?? ANY}
              onChange={(v) => change(i, { role: v === ANY ? null : v })}
              options={[{ value: ANY, label: "Любая роль" }, ...roleOptions.map((o) => ({ ...o, label: capital(o.label) }))]}
              {...NAMED_OPTIONS}
            />
            <Select
              aria-label={`Как часто, правило ${i + 1}`}
              style={{ minWidth: 150 }}
              value={r.per}
              onChange={(v) => change(i, { per: v, days: v === "days" ? (r.days ?? 30) : null })}
              options={[
                { value: "shift", label: "Каждую смену" },
                { value: "days", label: "Раз в N дней" },
              ]}
              {...NAMED_OPTIONS}
            />
            {r.per === "days" && (
              <InputNumber
                aria-label={`Дней, правило ${i + 1}`}
                min={1}
                max={3650}
                value={r.days}
                onChange={(v) => change(i, { days: v })}
              />
            )}
            <Button onClick={() => setRules(rules.filter((_, k) => k !== i))}>Убрать</Button>
          </Flex>
        ))}
        <Button onClick={() => setRules([...rules, { kind: "methane", role: null, per: "days", days: 30 }])}>Добавить правило</Button>
        {refusal && <Alert type="error" showIcon role="alert" title={capital(refusal)} />}
      </Flex>
    </Modal>
  );
}
