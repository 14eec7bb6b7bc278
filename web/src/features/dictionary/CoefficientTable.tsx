// One dictionary of a category: every coefficient with its value, unit, source, version and date.
import { Alert, Button, Table, Typography, type TableColumnsType } from "antd";
import { displayDate } from "../../shared/dates";
import { useDictionary, type DictionaryName } from "./api";
import type { EmissionCategory } from "./categories";
import { coefficientRows, type CoefficientRow } from "./coefficients";
import { Formula } from "./Formula";

const spanItem = (row: CoefficientRow) => ({ rowSpan: row.itemSpan });

const columns: TableColumnsType<CoefficientRow> = [
  { title: "Запись", dataIndex: "itemName", width: "22%", onCell: spanItem },
  {
    title: "Коэффициент",
    key: "label",
    width: "22%",
    render: (_, row) => (
      <>
        {row.label}
        {row.symbol && (
          <Typography.Text type="secondary">
            {", "}
            <Formula text={row.symbol} />
          </Typography.Text>
        )}
      </>
    ),
  },
  { title: "Значение", dataIndex: "value", width: 100, align: "right" },
  { title: "Ед. изм.", dataIndex: "unit", width: 120 },
  {
    title: "Источник",
    dataIndex: "source",
    render: (source: string) => (
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {source}
      </Typography.Text>
    ),
  },
  { title: "Версия", dataIndex: "version", width: 80, align: "center", onCell: spanItem },
  {
    title: "Действует с",
    dataIndex: "effectiveFrom",
    width: 120,
    render: (value: string) => displayDate(value),
    onCell: spanItem,
  },
];

export function CoefficientTable({ category, name }: { category: EmissionCategory; name: DictionaryName }) {
  const dictionary = useDictionary(name);

  return (
    <section aria-label={dictionary.data?.title ?? name}>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {dictionary.data?.title ?? " "}
      </Typography.Title>
      {dictionary.isError ? (
        <Alert
          type="error"
          showIcon
          title={`Не удалось загрузить справочник: ${dictionary.error.message}`}
          action={<Button onClick={() => void dictionary.refetch()}>Повторить</Button>}
        />
      ) : (
        <Table<CoefficientRow>
          rowKey="key"
          size="small"
          bordered
          columns={columns}
          dataSource={dictionary.data ? coefficientRows(category, dictionary.data.results) : []}
          loading={dictionary.isLoading}
          locale={{ emptyText: "Справочник пуст" }}
          pagination={false}
        />
      )}
    </section>
  );
}
