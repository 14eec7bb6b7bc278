// 8.1: the coal each facility processed in the year, which no calculation carries: entered here,
// printed with the passport's activity data, frozen with the year like everything else it reports.
import { useState } from "react";
import { Alert, Button, Card, Flex, Form, Modal, Typography } from "antd";
import { ResponsiveTable } from "../../shared/ResponsiveTable";
import { FROZEN_STATUSES } from "@core/inventory";
import { NumericInput } from "../../shared/NumericInput";
import { formatResult, numberText, numericInputProblem, parseNumericInput } from "../../shared/decimals";
import { useFacilities, useSaveCoalProcessed, type Facility, type Inventory } from "../../api/inventory";
import { coalProcessedFacilities } from "./inventory";

const DECIMALS = 2;

export function CoalProcessed({ inventory }: { inventory: Inventory }) {
  const facilities = useFacilities();
  const [editing, setEditing] = useState<Facility>();
  const review = inventory.review;
  const frozen = FROZEN_STATUSES.includes(review.status);
  const processed = new Map((review.coal_processed ?? []).map((row) => [row.facility, row.t]));
  const rows = coalProcessedFacilities(facilities.data ?? [], inventory);
  if (rows.length === 0) return null;
  return (
    <Card title="Переработка угля" size="small" data-testid="coal-processed">
      <Typography.Paragraph type="secondary">
        Данные о деятельности для паспорта отчета: сколько угля переработала площадка за {inventory.year} год.
        {frozen &&
          (review.status === "in_review"
            ? " Год на проверке: значения изменить нельзя, пока проверяющий не вернет его на доработку."
            : " Год утвержден: значения изменить нельзя, пока проверяющий не откроет год для изменений.")}
      </Typography.Paragraph>
      <ResponsiveTable
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={rows}
        columns={[
          { title: "Площадка", dataIndex: "name", key: "name" },
          {
            title: "Переработано, т",
            key: "t",
            align: "right",
            render: (_: unknown, f: Facility) => (processed.has(f.id) ? formatResult(processed.get(f.id), DECIMALS) : "не указано"),
          },
          {
            title: "",
            key: "edit",
            align: "right",
            render: (_: unknown, f: Facility) =>
              frozen ? null : (
                <Button size="small" onClick={() => setEditing(f)} aria-label={`Изменить переработку угля: ${f.name}`}>
                  Изменить
                </Button>
              ),
          },
        ]}
      />
      {editing && (
        <CoalProcessedDialog
          year={inventory.year}
          facility={editing}
          current={processed.get(editing.id)}
          reviewVersion={review.version}
          onClose={() => setEditing(undefined)}
        />
      )}
    </Card>
  );
}

function CoalProcessedDialog(props: {
  year: number;
  facility: Facility;
  current: number | undefined;
  reviewVersion: number;
  onClose(): void;
}) {
  const save = useSaveCoalProcessed(props.year);
  const [text, setText] = useState(numberText(props.current));
  const problem = numericInputProblem(text, { decimals: DECIMALS });
  const submit = () => {
    if (problem) return;
    const t = text.trim() === "" ? null : (parseNumericInput(text) ?? null);
    save.mutate({ facility: props.facility.id, t, version: props.reviewVersion }, { onSuccess: props.onClose });
  };
  return (
    <Modal
      open
      title={`Переработка угля: ${props.facility.name}`}
      okText="Сохранить"
      cancelText="Отмена"
      onOk={submit}
      okButtonProps={{ loading: save.isPending, disabled: Boolean(problem) }}
      onCancel={props.onClose}
      destroyOnHidden
    >
      <Form layout="vertical" onFinish={submit}>
        <Form.Item label={`Переработано угля за ${props.year} год`} htmlFor="coal-processed-t" extra="Пустое поле: не указано">
          <NumericInput id="coal-processed-t" value={text} onChange={setText} decimals={DECIMALS} unit="т" />
        </Form.Item>
      </Form>
      <Flex vertical>{save.isError && <Alert type="error" showIcon title={save.error.message} role="alert" />}</Flex>
    </Modal>
  );
}
