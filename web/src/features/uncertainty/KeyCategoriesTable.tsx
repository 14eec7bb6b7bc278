// The key categories of the level assessment on /projects/{projectId}/uncertainty: Approach 1
// (95 %) and Approach 2 (level × uncertainty, 90 %). A chunk of its own (antd's Table), loaded
// with import() once the page has painted.
import { Table, Tag, type TableColumnsType } from "antd";
import type { ProjectUncertainty } from "@core/calculation-uncertainty";
import type { RankedCategory } from "@core/uncertainty-core";
import { percent, tonnes, UNIT } from "../../shared/uncertainty/texts";

interface CategoryRow {
  key: string;
  title: string;
  count: number;
  co2e: number;
  u_pct: number;
  level?: RankedCategory;
  level2?: RankedCategory;
}

const keyTag = (category: RankedCategory | undefined) =>
  category === undefined ? "—" : category.key ? <Tag color="red">ключевая</Tag> : <Tag>не ключевая</Tag>;

const share = (value: number | undefined) => (value === undefined ? "—" : percent(value * 100));

const categoryColumns: TableColumnsType<CategoryRow> = [
  { title: "Категория (тип расчета)", dataIndex: "title", width: 300 },
  { title: "Расчетов", dataIndex: "count", width: 90, align: "right" },
  { title: `Выбросы, ${UNIT}`, dataIndex: "co2e", width: 150, align: "right", render: (v: number) => tonnes(v) },
  { title: "Неопределенность, ± %", dataIndex: "u_pct", width: 130, align: "right", render: (v: number) => percent(v) },
  {
    title: "Подход 1: уровень (порог 95 %)",
    children: [
      { title: "Доля", key: "l-share", width: 90, align: "right", render: (_: unknown, r) => share(r.level?.share) },
      { title: "Накопленная", key: "l-cum", width: 110, align: "right", render: (_: unknown, r) => share(r.level?.cumulative) },
      { title: "Категория", key: "l-key", width: 120, render: (_: unknown, r) => keyTag(r.level) },
    ],
  },
  {
    title: "Подход 2: уровень × неопределенность (порог 90 %)",
    children: [
      { title: "Доля", key: "a-share", width: 90, align: "right", render: (_: unknown, r) => share(r.level2?.share) },
      { title: "Накопленная", key: "a-cum", width: 110, align: "right", render: (_: unknown, r) => share(r.level2?.cumulative) },
      { title: "Категория", key: "a-key", width: 120, render: (_: unknown, r) => keyTag(r.level2) },
    ],
  },
];

function categoryRows(project: ProjectUncertainty): CategoryRow[] {
  const level = new Map(project.key_level.map((c) => [c.id, c]));
  const level2 = new Map(project.key_level_approach2.map((c) => [c.id, c]));
  return project.categories
    .map((c) => ({
      key: c.id,
      title: c.title,
      count: c.count,
      co2e: c.co2e,
      u_pct: c.u_pct,
      level: level.get(c.id),
      level2: level2.get(c.id),
    }))
    .sort((a, b) => b.co2e - a.co2e);
}

export function KeyCategoriesTable({ project }: { project: ProjectUncertainty }) {
  return (
    <Table<CategoryRow>
      size="small"
      rowKey="key"
      columns={categoryColumns}
      dataSource={categoryRows(project)}
      pagination={false}
      scroll={{ x: 1100 }}
    />
  );
}
