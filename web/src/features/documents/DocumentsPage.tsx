// docs/user-guide.md, /documents: download links to the normative documents. A document whose PDF has not been
// uploaded yet links to its official source instead, so no link on this page is ever broken.
import { fileSize } from "@server/contract";
import { useState } from "react";
import { Button, Space, Typography } from "antd";
import { Table } from "../../shared/LazyTable";
import { DownloadOutlined, ExportOutlined } from "@ant-design/icons";
import type { ColumnsType } from "antd/es/table";
import { isApiError } from "../../api/client";
import { downloadDocument, requisites, useDocuments, type NormativeDocument } from "../../api/documents";
import { useFeedback } from "../../shared/feedback";
import { DocumentHeading } from "../../shared/DocumentHeading";

export default function DocumentsPage() {
  const { data, isLoading, isError } = useDocuments();
  const { message } = useFeedback();
  const [busy, setBusy] = useState<string | null>(null);

  const download = async (doc: NormativeDocument) => {
    setBusy(doc.id);
    try {
      await downloadDocument(doc);
    } catch (error) {
      message.error(isApiError(error) ? error.detail : "Не удалось скачать документ");
    } finally {
      setBusy(null);
    }
  };

  const columns: ColumnsType<NormativeDocument> = [
    {
      title: "Документ",
      key: "title",
      render: (_, doc) => (
        <DocumentHeading kind={doc.kind_label} requisites={[doc.issuer, requisites(doc)].filter(Boolean).join(", ")} gap={2}>
          <Typography.Text strong>{doc.title}</Typography.Text>
        </DocumentHeading>
      ),
    },
    {
      title: "Файл",
      key: "file",
      width: 360,
      render: (_, doc) =>
        doc.download_url && doc.file ? (
          <Button
            icon={<DownloadOutlined />}
            loading={busy === doc.id}
            onClick={() => download(doc)}
            aria-label={`Скачать PDF: ${doc.title}`}
          >
            Скачать PDF ({fileSize(doc.file.size)})
          </Button>
        ) : doc.source_url ? (
          <Space orientation="vertical" size={0}>
            <a href={doc.source_url} target="_blank" rel="noopener noreferrer">
              <ExportOutlined /> Файл не загружен — открыть официальный источник
            </a>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {doc.source_label}
            </Typography.Text>
          </Space>
        ) : (
          <Typography.Text type="secondary">Файл не загружен</Typography.Text>
        ),
    },
  ];

  return (
    <>
      <Typography.Title level={2} style={{ marginTop: 0 }}>
        Нормативные документы
      </Typography.Title>
      {isError && <Typography.Paragraph type="danger">Не удалось загрузить список документов.</Typography.Paragraph>}
      <Table<NormativeDocument>
        rowKey="id"
        columns={columns}
        dataSource={data?.results ?? []}
        loading={isLoading}
        pagination={false}
        locale={{ emptyText: "Документов пока нет" }}
      />
    </>
  );
}
