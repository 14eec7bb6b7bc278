// A monitoring period's report on implementation (methodology 13.4, D80) on the «Климатические
// проекты» screen: sections 1–15 in the order of MinEcon Order 248's form as the server lays them out
// (GET …/report/), what the platform fills shown as it is, the executor's fields
// («заполняется исполнителем») editable and saved together with the version read, and the files
// (xlsx, PDF) of what is saved. A chunk of its own, loaded with a period.
import { useState } from "react";
import { Alert, Button, Card, Descriptions, Flex, Input, Table, Tag, Typography } from "antd";
import { DownloadOutlined, SaveOutlined } from "@ant-design/icons";
import { LIMITS } from "@server/contract/schemas/limits";
import { api } from "../../api/client";
import { LoadError } from "../../shared/LoadError";
import { PageLoading } from "../../shared/PageLoading";
import { saveBlob } from "../../shared/saveBlob";
import { usePhone } from "../../shared/useMediaQuery";
import { type ClimateReport, type ClimateReportFields, climateReportPath, useClimateReport, useSaveClimateReport } from "./api";
import { REPORT_HAND_MARK } from "./texts";

type Section = ClimateReport["sections"][number];
type HandKey = Section["hand"][number]["key"];

/** a figure («4 563,274», «15») is never broken inside its digits on a phone. */
const FIGURE = /^-?\d{1,3}(?:[ \u00a0\u202f]\d{3})*(?:,\d+)?(?: \/ -?\d{1,3}(?:[ \u00a0\u202f]\d{3})*(?:,\d+)?)*$/;
const figure = (text: string) => (FIGURE.test(text) ? <span style={{ whiteSpace: "nowrap" }}>{text}</span> : text);

function SectionTable({ table }: { table: Section["tables"][number] }) {
  const rows = table.rows.map((cells, i) => ({ key: i, cells }));
  return (
    <Flex vertical gap={4}>
      <Typography.Text strong>{table.title}</Typography.Text>
      <Table
        size="small"
        rowKey="key"
        dataSource={rows}
        pagination={
          rows.length > LIMITS.page.climateReportRows ? { pageSize: LIMITS.page.climateReportRows, showSizeChanger: false } : false
        }
        scroll={{ x: Math.max(480, table.columns.length * 120) }}
        locale={{ emptyText: "нет" }}
        columns={table.columns.map((title, i) => ({ title, key: String(i), render: (_, row) => figure(row.cells[i]) }))}
      />
    </Flex>
  );
}

export default function ClimateReportCard({ project, period }: { project: string; period: string }) {
  const report = useClimateReport(project, period);
  const save = useSaveClimateReport(project, period);
  const [drafts, setDrafts] = useState<ClimateReportFields>({});
  const [notice, setNotice] = useState<{ type: "success" | "error"; text: string }>();
  // A phone's width: each item's value under its name, not squeezed beside it.
  const phone = usePhone();
  if (report.error) return <LoadError what="отчет о реализации" message={report.error.message} retry={() => void report.refetch()} />;
  if (!report.data) return <PageLoading />;
  const r = report.data;
  const stored = new Map(r.sections.flatMap((s) => s.hand.map((f) => [f.key, f.text] as const)));
  const changed = (Object.entries(drafts) as [HandKey, string][]).filter(([key, text]) => text !== stored.get(key));

  async function submit() {
    setNotice(undefined);
    try {
      const saved = await save.mutateAsync({ fields: Object.fromEntries(changed), version: r.version });
      setDrafts({});
      setNotice({ type: "success", text: `Отчет сохранен, версия ${saved.version}` });
    } catch (error) {
      setNotice({ type: "error", text: error instanceof Error ? error.message : String(error) });
    }
  }

  async function download(format: "xlsx" | "pdf") {
    setNotice(undefined);
    try {
      const file = await api.download(await climateReportPath(project, period, format));
      saveBlob(file.blob, file.fileName ?? `${r.file_name}.${format}`);
    } catch (error) {
      setNotice({ type: "error", text: error instanceof Error ? error.message : String(error) });
    }
  }

  return (
    <Card size="small" title="Отчет о реализации климатического проекта" data-testid="climate-report">
      <Flex vertical gap={16}>
        <Typography.Paragraph style={{ margin: 0 }}>
          {r.subtitle}. Дата составления {r.issued}; {r.version > 0 ? `версия ${r.version}` : "еще не сохранялся"}. Разделы 1–15 в порядке
          формы приказа Минэкономразвития № 248; поля с отметкой «{REPORT_HAND_MARK}» пишет исполнитель, остальное платформа заполняет по
          своим данным.
        </Typography.Paragraph>
        <Flex wrap gap={8} align="center">
          <Button
            type="primary"
            icon={<SaveOutlined />}
            disabled={changed.length === 0}
            loading={save.isPending}
            onClick={() => void submit()}
          >
            Сохранить
          </Button>
          <Button icon={<DownloadOutlined />} onClick={() => void download("xlsx")}>
            Скачать xlsx
          </Button>
          <Button icon={<DownloadOutlined />} onClick={() => void download("pdf")}>
            Скачать PDF
          </Button>
          <Typography.Text type={r.empty_hand > 0 ? "warning" : "secondary"} data-testid="climate-report-empty">
            {r.empty_hand > 0 ? `Не заполнено полей исполнителя: ${r.empty_hand}` : "Все поля исполнителя заполнены"}
          </Typography.Text>
        </Flex>
        {changed.length > 0 && (
          <Typography.Text type="secondary">Несохраненные изменения не попадут в файлы: сохраните отчет перед выгрузкой.</Typography.Text>
        )}
        {notice && <Alert type={notice.type} showIcon message={notice.text} />}
        {r.sections.map((section) => (
          <Flex key={section.number} vertical gap={8} data-testid={`climate-report-section-${section.number}`}>
            <Typography.Title level={5} style={{ margin: 0 }}>
              {section.number}. {section.title}
            </Typography.Title>
            {section.filled.length > 0 && (
              <Descriptions
                bordered
                size="small"
                column={1}
                layout={phone ? "vertical" : "horizontal"}
                items={section.filled.map((item, i) => ({ key: i, label: item.label, children: figure(item.value) }))}
              />
            )}
            {section.tables.map((table) => (
              <SectionTable key={table.title} table={table} />
            ))}
            {section.hand.map((field) => (
              <Flex key={field.key} vertical gap={4}>
                <label htmlFor={`climate-report-${field.key}`}>
                  {field.label} <Tag color="gold">{REPORT_HAND_MARK}</Tag>
                </label>
                <Input.TextArea
                  id={`climate-report-${field.key}`}
                  autoSize={{ minRows: 2, maxRows: 12 }}
                  maxLength={LIMITS.climate.reportText}
                  value={drafts[field.key] ?? field.text}
                  onChange={(e) => setDrafts((d) => ({ ...d, [field.key]: e.target.value }))}
                />
              </Flex>
            ))}
          </Flex>
        ))}
      </Flex>
    </Card>
  );
}
