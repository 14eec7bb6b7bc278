// The 8 emission categories, 4 a page (docs/user-guide.md); a row click (or Enter) opens its coefficients.
import { Flex, Tag, Typography, type TableColumnsType } from "antd";
import { Table } from "../../shared/LazyTable";
import { CATEGORIES, typeTitle, type EmissionCategory } from "./categories";
import { Formula } from "./Formula";
import { LIMITS } from "@server/contract";

export const CATEGORIES_PAGE_SIZE = LIMITS.page.referenceCategories;

const columns: TableColumnsType<EmissionCategory> = [
  { title: "Категория", dataIndex: "category", width: "24%" },
  {
    title: "Формула",
    key: "formula",
    render: (_, category) => (
      <Flex vertical gap={2}>
        {category.formula.map((line) => (
          <Formula key={line} text={line} />
        ))}
      </Flex>
    ),
  },
  {
    title: "Документ",
    key: "document",
    width: "20%",
    render: (_, category) => (
      <Flex vertical>
        <Typography.Link
          href={category.document.url}
          target="_blank"
          rel="noopener noreferrer"
          // Following the link must not also open the row.
          onClick={(event) => event.stopPropagation()}
        >
          {category.document.label}
        </Typography.Link>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {category.clause}
        </Typography.Text>
      </Flex>
    ),
  },
  { title: "Тип расчета", key: "type", width: "26%", render: (_, category) => typeTitle(category) },
  { title: "Статус", key: "status", width: 100, render: () => <Tag color="green">Активен</Tag> },
];

interface Props {
  page: number;
  onPage(page: number): void;
  selected: number | undefined;
  onSelect(index: number): void;
}

export function CategoriesTable({ page, onPage, selected, onSelect }: Props) {
  return (
    <Table<EmissionCategory>
      rowKey="index"
      columns={columns}
      dataSource={[...CATEGORIES]}
      rowClassName={(category) => (category.index === selected ? "ant-table-row-selected" : "")}
      onRow={(category) => ({
        onClick: () => onSelect(category.index),
        onKeyDown: (event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            onSelect(category.index);
          }
        },
        tabIndex: 0,
        "aria-selected": category.index === selected,
        style: { cursor: "pointer" },
      })}
      pagination={{
        current: page,
        pageSize: CATEGORIES_PAGE_SIZE,
        total: CATEGORIES.length,
        showSizeChanger: false,
        hideOnSinglePage: false,
        onChange: onPage,
      }}
    />
  );
}
