// 8.1: the coal each facility processed in the year, which no calculation carries: entered here,
// printed with the passport's activity data, frozen with the year like everything else it reports.
// beside it the facility's coal output of the year, typed once here and offered to every
// calculation that takes coal production; changing it asks which calculations follow.
import { useMemo, useState, type ReactNode } from "react";
import { Alert, Button, Card, Checkbox, Flex, Form, Modal, Typography } from "antd";
import { REGISTRY, isCalculationType } from "@core/registry";
import { ResponsiveTable } from "../../shared/ResponsiveTable";
import { FROZEN_STATUSES } from "@core/inventory";
import { NumericInput } from "../../shared/NumericInput";
import { formatStored, formatStoredAtMost, numberText, numericInputProblem, parseNumericInput } from "../../shared/decimals";
import { useCoalOutput, useFacilities, useSaveCoalOutput, useSaveCoalProcessed, type Facility, type Inventory } from "../../api/inventory";
import { coalProcessedFacilities } from "./inventory";

const DECIMALS = 2;
/** The coal output is typed in t, to at most 4 decimals (as a calculation's production). */
const OUTPUT_DECIMALS = 4;
/** The facilities that mine coal: only they have a coal output. */
const MINING = new Set<Facility["kind"]>(["underground_mine", "open_pit"]);

/** «3 100», as people type it, from a stored figure. */
const typedText = (t: number | undefined) => (t === undefined ? "" : formatStored(t).replace(/\u00a0/g, " "));

/** A facility's figure of the year in a dialog: «Сохранить» sends it unless what is typed is wrong
 *  (`problem`), and a refused save shows under it. */
function FigureDialog(props: {
  title: string;
  save: { isPending: boolean; error: Error | null };
  problem: string | undefined;
  onSave(): void;
  onClose(): void;
  children: ReactNode;
}) {
  return (
    <Modal
      open
      title={props.title}
      okText="Сохранить"
      cancelText="Отмена"
      onOk={props.onSave}
      okButtonProps={{ loading: props.save.isPending, disabled: Boolean(props.problem) }}
      onCancel={props.onClose}
      destroyOnHidden
    >
      {props.children}
      <Flex vertical>{props.save.error && <Alert type="error" showIcon title={props.save.error.message} role="alert" />}</Flex>
    </Modal>
  );
}

export function CoalProcessed({ inventory }: { inventory: Inventory }) {
  const facilities = useFacilities();
  const [editing, setEditing] = useState<Facility>();
  const [editingOutput, setEditingOutput] = useState<Facility>();
  const review = inventory.review;
  const frozen = FROZEN_STATUSES.includes(review.status);
  const processed = new Map((review.coal_processed ?? []).map((row) => [row.facility, row.t]));
  const output = new Map((review.coal_output ?? []).map((row) => [row.facility, row.t]));
  const rows = coalProcessedFacilities(facilities.data ?? [], inventory);
  if (rows.length === 0) return null;
  return (
    <Card title="Переработка угля" size="small" data-testid="coal-processed">
      <Typography.Paragraph type="secondary">
        Данные о деятельности для паспорта отчета: сколько угля добыла и переработала площадка за {inventory.year} год. Добыча вводится
        здесь один раз и подставляется в расчеты, которым она нужна (обработка угля, оценка по Уровню 1, открытая добыча).
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
            title: "Добыто, т",
            key: "output",
            align: "right",
            render: (_: unknown, f: Facility) =>
              !MINING.has(f.kind) ? "—" : output.has(f.id) ? formatStored(output.get(f.id)) : "не указана",
          },
          {
            title: "",
            key: "edit-output",
            align: "right",
            render: (_: unknown, f: Facility) =>
              frozen || !MINING.has(f.kind) ? null : (
                <Button size="small" onClick={() => setEditingOutput(f)} aria-label={`Изменить добычу угля: ${f.name}`}>
                  Добыча
                </Button>
              ),
          },
          {
            title: "Переработано, т",
            key: "t",
            align: "right",
            // Tonnes of coal read as typed, to at most 2 decimals: «2 450 000,5», «3 100», never «3 100,00».
            render: (_: unknown, f: Facility) => (processed.has(f.id) ? formatStoredAtMost(processed.get(f.id), DECIMALS) : "не указано"),
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
          mined={output.get(editing.id)}
          reviewVersion={review.version}
          onClose={() => setEditing(undefined)}
        />
      )}
      {editingOutput && (
        <CoalOutputDialog
          year={inventory.year}
          facility={editingOutput}
          current={output.get(editingOutput.id)}
          reviewVersion={review.version}
          onClose={() => setEditingOutput(undefined)}
        />
      )}
    </Card>
  );
}

function CoalProcessedDialog(props: {
  year: number;
  facility: Facility;
  current: number | undefined;
  /** The facility's coal output of the year: what a figure not entered yet starts from. */
  mined: number | undefined;
  reviewVersion: number;
  onClose(): void;
}) {
  const save = useSaveCoalProcessed(props.year);
  const [text, setText] = useState(props.current === undefined ? typedText(props.mined) : numberText(props.current));
  const problem = numericInputProblem(text, { decimals: DECIMALS });
  const submit = () => {
    if (problem) return;
    const t = text.trim() === "" ? null : (parseNumericInput(text) ?? null);
    save.mutate({ facility: props.facility.id, t, version: props.reviewVersion }, { onSuccess: props.onClose });
  };
  return (
    <FigureDialog title={`Переработка угля: ${props.facility.name}`} save={save} problem={problem} onSave={submit} onClose={props.onClose}>
      <Form layout="vertical" onFinish={submit}>
        <Form.Item
          label={`Переработано угля за ${props.year} год`}
          htmlFor="coal-processed-t"
          extra={
            props.mined === undefined
              ? "Пустое поле: не указано"
              : `Добыто за ${props.year} год: ${formatStored(props.mined)} т. Пустое поле: не указано`
          }
        >
          <NumericInput id="coal-processed-t" value={text} onChange={setText} decimals={DECIMALS} unit="т" />
        </Form.Item>
      </Form>
    </FigureDialog>
  );
}

/** the facility's coal output of the year; a change asks which calculations with the old figure follow. */
function CoalOutputDialog(props: {
  year: number;
  facility: Facility;
  current: number | undefined;
  reviewVersion: number;
  onClose(): void;
}) {
  const save = useSaveCoalOutput(props.year);
  const calculations = useCoalOutput(props.year, props.facility.id);
  const [text, setText] = useState(typedText(props.current));
  // The calculations the user unticked; every one with the old figure follows unless unticked.
  const [kept, setKept] = useState<ReadonlySet<string>>(new Set());
  const problem = numericInputProblem(text, { decimals: OUTPUT_DECIMALS });
  const t = text.trim() === "" ? null : (parseNumericInput(text) ?? null);
  const followers = useMemo(
    () =>
      props.current === undefined || t === null || t === props.current
        ? []
        : (calculations.data?.calculations ?? []).filter((c) => c.volume_t === props.current),
    [calculations.data, props.current, t],
  );
  const follow = followers.filter((c) => !kept.has(c.id)).map((c) => c.id);
  const submit = () => {
    if (problem) return;
    save.mutate({ facility: props.facility.id, t, version: props.reviewVersion, follow }, { onSuccess: props.onClose });
  };
  return (
    <FigureDialog title={`Добыча угля: ${props.facility.name}`} save={save} problem={problem} onSave={submit} onClose={props.onClose}>
      <Form layout="vertical" onFinish={submit}>
        <Form.Item
          label={`Добыто угля за ${props.year} год`}
          htmlFor="coal-output-t"
          extra="Подставляется в новые расчеты площадки, которым нужна добыча угля. Пустое поле: не указана"
        >
          <NumericInput id="coal-output-t" value={text} onChange={setText} decimals={OUTPUT_DECIMALS} unit="т" />
        </Form.Item>
      </Form>
      {followers.length > 0 && (
        <Flex vertical gap={4} data-testid="coal-output-followers">
          <Typography.Text>
            Расчеты с прежней добычей {formatStored(props.current)} т. Отмеченные получат {formatStored(t)} т и будут пересчитаны:
          </Typography.Text>
          {followers.map((c) => (
            <Checkbox
              key={c.id}
              checked={!kept.has(c.id)}
              onChange={(e) =>
                setKept((before) => {
                  const next = new Set(before);
                  if (e.target.checked) next.delete(c.id);
                  else next.add(c.id);
                  return next;
                })
              }
            >
              {c.name} — {isCalculationType(c.type) ? REGISTRY[c.type].title : c.type}
              {c.inventory_role === "alternative" ? " (альтернативный)" : ""}, проект «{c.project_name}»
            </Checkbox>
          ))}
        </Flex>
      )}
    </FigureDialog>
  );
}
