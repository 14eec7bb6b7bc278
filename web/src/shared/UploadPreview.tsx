// What a chosen file holds, before anything is saved (docs/user-guide.md › «Загрузка файла:
// предпросмотр»): the server reads it as the save would (POST …/?dry_run=1) and answers the first
// 20 rows and the first refused rows below them, their count, each column's unit and every row the
// save would refuse. The table scrolls to the first bad cell, however far down or right it is.
import { useEffect, useRef } from "react";
import { Alert, Flex, Table, Typography } from "antd";
import { PREVIEW_ROWS, type UploadPreviewView } from "@server/contract";
import { api, routePath } from "../api/client";
import { directHistory } from "../api/calculations";
import type { CalculationType } from "@core/registry";
import { formatStored } from "./decimals";

export type { UploadPreviewView };

/** POST {type}/?dry_run=1: the file with the project (the periods lie within its dates) and
 *  the fields the reading depends on (the gap filling's column names). Nothing is stored. */
export async function previewUpload(type: CalculationType, projectId: string, file: File, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.set("project", projectId);
  for (const [key, value] of Object.entries(fields)) if (value.trim() !== "") form.set(key, value);
  form.set("file_data", file, file.name);
  // A forecast's history larger than a request is read from storage (api.ts, directHistory), and
  // stays there for the save of the same file.
  const sent = type === "regres_methane" ? (await directHistory(form, "file_data", "preview")).form : form;
  const path = await routePath("calculations", (c) => c[":type"].$path({ param: { type }, query: { dry_run: "1" } }));
  return api.upload<UploadPreviewView>("POST", path, sent);
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

/** A cell as read: a number Russian style, a year as a year («2018», never «2 018»). */
const cellText = (value: number | string | null, column: string) =>
  typeof value === "number" ? (column === YEAR_COLUMN ? String(value) : formatStored(value)) : (value ?? "");
/** The yearly series' year column (the registry's upload columns). */
const YEAR_COLUMN = "year";

/** The preview table's height: long files scroll inside it, the dialog stays put. */
const TABLE_HEIGHT = 360;

export function UploadPreview({ preview }: { preview: UploadPreviewView }) {
  const box = useRef<HTMLDivElement>(null);
  // The first bad cell in sight, within the table's own scroll and the dialog's.
  const firstBad = preview.errors.find((e) => e.row !== null)?.row;
  useEffect(() => {
    if (firstBad === undefined) return;
    const cell = box.current?.querySelector(`tr[data-row-key="${firstBad}"] td[aria-invalid=true]`);
    cell?.scrollIntoView({ block: "nearest", inline: "center" });
  }, [firstBad]);
  const refused = new Map<number, Set<string>>();
  for (const error of preview.errors) {
    if (error.row === null) continue;
    const columns = refused.get(error.row) ?? new Set<string>();
    columns.add(error.column ?? "");
    refused.set(error.row, columns);
  }
  // A refused cell is named by the file's header; the preview's columns carry both names.
  const headerOf = new Map(preview.columns.map((c) => [c.name, c.header ?? c.name]));
  const badCell = (row: UploadPreviewView["rows"][number], name: string) => refused.get(row.row)?.has(headerOf.get(name) ?? name) === true;
  const columns = [
    { title: "Строка", dataIndex: "row", key: "row", width: 72, fixed: "left" as const },
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
        onCell: (row: UploadPreviewView["rows"][number]) =>
          badCell(row, c.name) ? { "aria-invalid": true, style: { outline: "2px solid #ff4d4f", outlineOffset: -2 } } : {},
        render: (_: unknown, row: UploadPreviewView["rows"][number]) => {
          const text = cellText(row.values[c.name] ?? null, c.name);
          return badCell(row, c.name) ? (
            <Typography.Text type="danger" strong>
              {text || "(пусто)"}
            </Typography.Text>
          ) : (
            text
          );
        },
      })),
  ];
  // The first rows, then the refused ones further down.
  const first = Math.min(preview.rows.length, PREVIEW_ROWS);
  const more = preview.rows.length - first;
  return (
    <Flex vertical gap={8} data-testid="upload-preview" ref={box}>
      <Typography.Text>
        Прочитано строк: {preview.count}
        {preview.count > preview.rows.length ? ` (показаны первые ${first}${more > 0 ? ` и ниже строки с ошибками: ${more}` : ""})` : ""}.
        Ничего еще не сохранено.
      </Typography.Text>
      <Table
        size="small"
        rowKey="row"
        pagination={false}
        scroll={{ x: "max-content", y: TABLE_HEIGHT }}
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
