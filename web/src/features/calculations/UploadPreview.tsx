// What a chosen file holds, before anything is saved (docs/user-guide.md › «Загрузка файла:
// предпросмотр»): the server reads it as the save would (POST …/?dry_run=1) and answers the first
// 20 rows, their count, each column's unit and every row the save would refuse.
import { Alert, Flex, Table, Typography } from "antd";
import type { UploadPreviewView } from "@server/contract";
import { api } from "../../api/client";
import type { CalculationType } from "@core/registry";
import { formatStored } from "../../shared/decimals";

export type { UploadPreviewView };

/** POST v1/{type}/?dry_run=1: the file with the project (the periods lie within its dates) and
 *  the fields the reading depends on (the gap filling's column names). Nothing is stored. */
export function previewUpload(type: CalculationType, projectId: string, file: File, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.set("project", projectId);
  for (const [key, value] of Object.entries(fields)) if (value.trim() !== "") form.set(key, value);
  form.set("file_data", file, file.name);
  return api.upload<UploadPreviewView>("POST", `v1/${type}/?dry_run=1`, form);
}

/** «Лист «CSV», строка 4, столбец «Расход газовой смеси, м³/мин»: …». */
export function previewErrorText(error: UploadPreviewView["errors"][number]): string {
  const where = [
    `Лист «${error.sheet}»`,
    error.row !== null && `строка ${error.row}`,
    error.column !== null && `столбец «${error.column}»`,
  ];
  return `${where.filter(Boolean).join(", ")}: ${error.message}`;
}

const cellText = (value: number | string | null) => (typeof value === "number" ? formatStored(value) : (value ?? ""));

export function UploadPreview({ preview }: { preview: UploadPreviewView }) {
  const refused = new Map<number, Set<string>>();
  for (const error of preview.errors) {
    if (error.row === null) continue;
    const columns = refused.get(error.row) ?? new Set<string>();
    columns.add(error.column ?? "");
    refused.set(error.row, columns);
  }
  // A refused cell is named by the file's header; the preview's columns carry both names.
  const headerOf = new Map(preview.columns.map((c) => [c.name, c.header ?? c.name]));
  const columns = [
    { title: "Строка", dataIndex: "row", key: "row", width: 72 },
    ...preview.columns
      .filter((c) => c.header !== null)
      .map((c) => ({
        title: (
          <Flex vertical>
            <span>{c.header}</span>
            <Typography.Text type="secondary">{c.unit ? c.unit : "—"}</Typography.Text>
          </Flex>
        ),
        key: c.name,
        render: (_: unknown, row: UploadPreviewView["rows"][number]) => {
          const text = cellText(row.values[c.name] ?? null);
          const bad = refused.get(row.row)?.has(headerOf.get(c.name) ?? c.name);
          return bad ? (
            <Typography.Text type="danger" strong>
              {text || "(пусто)"}
            </Typography.Text>
          ) : (
            text
          );
        },
      })),
  ];
  const shown = preview.rows.length;
  return (
    <Flex vertical gap={8} data-testid="upload-preview">
      <Typography.Text>
        Прочитано строк: {preview.count}
        {preview.count > shown ? ` (показаны первые ${shown})` : ""}. Ничего еще не сохранено.
      </Typography.Text>
      <Table
        size="small"
        rowKey="row"
        pagination={false}
        scroll={{ x: "max-content" }}
        columns={columns}
        dataSource={preview.rows}
        rowClassName={(row) => (refused.has(row.row) ? "upload-preview-refused" : "")}
        onRow={(row) => (refused.has(row.row) ? { style: { background: "#fff1f0" }, "aria-invalid": true } : {})}
      />
      {preview.errors.length > 0 ? (
        <Alert
          type="error"
          showIcon
          message={`Ошибок в файле: ${preview.errors.length}. Исправьте файл и выберите его снова.`}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 20 }}>
              {preview.errors.map((error) => (
                <li key={`${error.row}-${error.column}-${error.message}`}>{previewErrorText(error)}</li>
              ))}
            </ul>
          }
        />
      ) : (
        <Alert type="success" showIcon message="Ошибок не найдено: файл будет прочитан так при сохранении" />
      )}
    </Flex>
  );
}
