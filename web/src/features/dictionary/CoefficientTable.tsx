// One dictionary of a category: every coefficient with its value, unit, source, version and date.
// The source column holds a numbered reference (full text in its tooltip and listed under the table).
import { Tooltip, Typography, type TableColumnsType } from "antd";
import { ListTable } from "../../shared/LazyTable";
import { displayDate } from "../../shared/dates";
import { LoadError } from "../../shared/LoadError";
import { useDictionary, type DictionaryName } from "../../api/dictionary";
import type { EmissionCategory } from "./categories";
import { coefficientTable, type CoefficientRow } from "./coefficients";
import { Formula } from "./Formula";

const spanItem = (row: CoefficientRow) => ({ rowSpan: row.itemSpan });

const columns: TableColumnsType<CoefficientRow> = [
  { title: "Запись", dataIndex: "itemName", width: "26%", onCell: spanItem },
  {
    title: "Коэффициент",
    key: "label",
    width: "28%",
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
  { title: "Ед. изм.", dataIndex: "unit", width: 130 },
  {
    title: "Источник",
    key: "source",
    width: 90,
    align: "center",
    render: (_, row) => (
      <Tooltip title={row.source}>
        <Typography.Text aria-label={`Источник ${row.sourceNumber}: ${row.source}`}>[{row.sourceNumber}]</Typography.Text>
      </Tooltip>
    ),
  },
  {
    title: "Неопределенность (95 %)",
    key: "uncertainty",
    width: 170,
    render: (_, row) =>
      row.uncertaintySource ? (
        <Tooltip title={row.uncertaintySource}>
          <span style={{ whiteSpace: "nowrap" }}>{row.uncertainty}</span>
        </Tooltip>
      ) : (
        row.uncertainty
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
  const data = dictionary.data ? coefficientTable(category, dictionary.data.results) : undefined;

  return (
    <section aria-label={dictionary.data?.title ?? name}>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {dictionary.data?.title ?? " "}
      </Typography.Title>
      {dictionary.isError ? (
        <LoadError what="справочник" message={dictionary.error.message} retry={() => void dictionary.refetch()} />
      ) : (
        <ListTable<CoefficientRow>
          rowKey="key"
          bordered
          columns={columns}
          dataSource={data?.rows ?? []}
          loading={dictionary.isLoading}
          locale={{ emptyText: "Справочник пуст" }}
          footer={
            data && data.sources.length > 0
              ? () => (
                  <ol aria-label="Источники" style={{ margin: 0, paddingLeft: 24, fontSize: 12 }}>
                    {data.sources.map((source) => (
                      <li key={source}>{source}</li>
                    ))}
                  </ol>
                )
              : undefined
          }
        />
      )}
    </section>
  );
}
