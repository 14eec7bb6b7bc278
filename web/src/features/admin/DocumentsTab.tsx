// «Документы»: the normative documents of /documents — upload a PDF (≤ 50 MB) for a catalogue entry
// or a new document, replace it, edit the metadata, remove (softly) and restore. PDFs go straight to
// storage with upload progress (directUpload.ts): in AWS they could not pass through the API.
import { useState } from "react";
import { Alert, Button, DatePicker, Form, Input, Popconfirm, Progress, Select, Space, Tag, Typography, Upload } from "antd";
import { Table } from "../../shared/LazyTable";
import { DeleteOutlined, EditOutlined, PlusOutlined, RollbackOutlined, UploadOutlined } from "@ant-design/icons";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import dayjs, { type Dayjs } from "dayjs";
import { DOCUMENT_KINDS, type DocumentKind, fileSize, SOURCE_URL_MAX, SOURCE_URL_PATTERN } from "@server/contract";
import { DOCUMENT_TEXT_MAX } from "@server/contract/schemas/limits";
import { documentsKey, requisites, type NormativeDocument } from "../../api/documents";
import { adminKeys, documentUpload, errorText, fieldError, patchDocument, useAdminDocuments, useUploadLimits } from "../../api/admin";
import { phaseText, uploadDirect, type UploadPhase } from "../../api/directUpload";
import { useFeedback } from "../../shared/feedback";
import { DATE_FIELD_FORMATS } from "../../shared/dates";
import { pdfProblem } from "./fileChecks";
import { actionsColumn } from "./listParts";
import { FormDialog } from "../../shared/FormDialog";
import { DocumentHeading } from "../../shared/DocumentHeading";

const META_FIELDS = ["title", "number", "date", "kind", "issuer", "source_url", "source_label", "file"] as const;

interface MetaForm {
  title: string;
  number?: string;
  date?: Dayjs | null;
  kind: DocumentKind;
  issuer?: string;
  source_url?: string;
  source_label?: string;
}

const kindOptions = Object.entries(DOCUMENT_KINDS).map(([value, label]) => ({ value, label }));

function useInvalidate() {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: adminKeys.documents });
    await queryClient.invalidateQueries({ queryKey: documentsKey });
    await queryClient.invalidateQueries({ queryKey: adminKeys.auditAll });
  };
}

function metaBody(values: MetaForm) {
  return {
    title: values.title.trim(),
    number: values.number?.trim() ?? "",
    date: values.date ? values.date.format("YYYY-MM-DD") : "",
    kind: values.kind,
    issuer: values.issuer?.trim() ?? "",
    source_url: values.source_url?.trim() ?? "",
    source_label: values.source_label?.trim() ?? "",
  };
}

/** Progress under an upload button or in the dialog: the bar while the file travels, then the check. */
function UploadProgress({ phase }: { phase: UploadPhase }) {
  return (
    <div role="status" aria-label={phaseText(phase)} style={{ minWidth: 160 }}>
      <Progress
        percent={phase.phase === "sending" ? phase.percent : 100}
        showInfo={false}
        size="small"
        status={phase.phase === "checking" ? "active" : "normal"}
      />
      <Typography.Text type="secondary">{phaseText(phase)}</Typography.Text>
    </div>
  );
}

function DocumentDialog({ doc, onClose }: { doc?: NormativeDocument; onClose: () => void }) {
  const limits = useUploadLimits();
  const [form] = Form.useForm<MetaForm>();
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<UploadPhase | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { message } = useFeedback();
  const invalidate = useInvalidate();
  const save = useMutation({
    mutationFn: async (values: MetaForm) => {
      const body = metaBody(values);
      if (doc) return patchDocument(doc.id, { ...body, version: doc.version });
      setFailure(null);
      return uploadDirect(documentUpload(body), file!, "application/pdf", setPhase);
    },
    onSuccess: async () => {
      await invalidate();
      message.success(doc ? "Документ сохранен" : "Документ добавлен");
      onClose();
    },
    onError: (error) => {
      const field = fieldError(error, META_FIELDS);
      if (field && field.name !== "file") form.setFields([{ name: field.name, errors: field.errors }]);
      else {
        setFailure(errorText(error));
        message.error(errorText(error));
      }
    },
    onSettled: () => setPhase(null),
  });

  return (
    <FormDialog
      form={form}
      open
      title={doc ? "Документ" : "Новый документ"}
      okText={doc ? "Сохранить" : "Добавить"}
      saving={save.isPending}
      onClose={onClose}
      width={640}
    >
      <Form<MetaForm>
        form={form}
        layout="vertical"
        initialValues={doc ? { ...doc, date: doc.date ? dayjs(doc.date) : null } : { kind: "law" }}
        onFinish={(values) => {
          if (!doc && !file) {
            message.error("Прикрепите файл PDF");
            return;
          }
          save.mutate(values);
        }}
      >
        <Form.Item label="Название" name="title" rules={[{ required: true, whitespace: true, message: "Укажите название" }]}>
          <Input.TextArea autoSize={{ minRows: 2 }} maxLength={DOCUMENT_TEXT_MAX.title} />
        </Form.Item>
        <Space wrap>
          <Form.Item label="Вид" name="kind" rules={[{ required: true }]}>
            <Select options={kindOptions} style={{ width: 240 }} />
          </Form.Item>
          <Form.Item label="Номер" name="number">
            <Input style={{ width: 180 }} maxLength={DOCUMENT_TEXT_MAX.number} />
          </Form.Item>
          <Form.Item label="Дата" name="date">
            <DatePicker format={DATE_FIELD_FORMATS} placeholder="ДД.ММ.ГГГГ" />
          </Form.Item>
        </Space>
        <Form.Item label="Кем издан" name="issuer">
          <Input maxLength={DOCUMENT_TEXT_MAX.issuer} />
        </Form.Item>
        <Form.Item
          label="Официальный источник"
          name="source_url"
          rules={[{ pattern: SOURCE_URL_PATTERN, message: "Адрес вида https://…" }]}
        >
          <Input placeholder="https://" maxLength={SOURCE_URL_MAX} />
        </Form.Item>
        <Form.Item label="Название источника" name="source_label">
          <Input maxLength={DOCUMENT_TEXT_MAX.source_label} />
        </Form.Item>
        {!doc && (
          <Form.Item label={`Файл PDF${limits.data ? ` (до ${fileSize(limits.data.document_max_bytes)})` : ""}`} required>
            <Upload
              accept="application/pdf,.pdf"
              maxCount={1}
              beforeUpload={(chosen) => {
                const problem = pdfProblem(chosen, limits.data?.document_max_bytes ?? Number.POSITIVE_INFINITY);
                if (problem) message.error(problem);
                else setFile(chosen);
                return false;
              }}
              onRemove={() => setFile(null)}
              fileList={file ? [{ uid: "file", name: file.name, status: "done" }] : []}
            >
              <Button icon={<UploadOutlined />} disabled={save.isPending}>
                Выбрать файл
              </Button>
            </Upload>
            {phase && <UploadProgress phase={phase} />}
            {failure && !save.isPending && <Alert type="error" showIcon title={failure} style={{ marginTop: 8 }} />}
          </Form.Item>
        )}
      </Form>
    </FormDialog>
  );
}

/** Listed first: documents still without their PDF, then those with it, then the deleted ones. */
const rank = (doc: NormativeDocument) => (doc.is_deleted ? 2 : doc.file ? 1 : 0);

export function DocumentsTab() {
  const limits = useUploadLimits();
  const { data, isLoading } = useAdminDocuments();
  const [dialog, setDialog] = useState<NormativeDocument | "new" | null>(null);
  const { message } = useFeedback();
  const invalidate = useInvalidate();

  const [replacing, setReplacing] = useState<{ id: string; phase: UploadPhase } | null>(null);
  const [replaceFailure, setReplaceFailure] = useState<{ id: string; text: string } | null>(null);
  const replace = useMutation({
    mutationFn: ({ doc, file }: { doc: NormativeDocument; file: File }) => {
      setReplaceFailure(null);
      return uploadDirect(documentUpload(undefined, doc), file, "application/pdf", (phase) => setReplacing({ id: doc.id, phase }));
    },
    onSuccess: async () => {
      await invalidate();
      message.success("Файл загружен");
    },
    onError: (error, { doc }) => {
      setReplaceFailure({ id: doc.id, text: errorText(error) });
      message.error(errorText(error));
    },
    onSettled: () => setReplacing(null),
  });
  const setDeleted = useMutation({
    mutationFn: ({ doc, deleted }: { doc: NormativeDocument; deleted: boolean }) =>
      patchDocument(doc.id, { is_deleted: deleted, version: doc.version }),
    onSuccess: async (_, { deleted }) => {
      await invalidate();
      message.success(deleted ? "Документ удален" : "Документ восстановлен");
    },
    onError: (error) => message.error(errorText(error)),
  });

  // What users still reach only through the official source: shown at once, listed first.
  const shown = (data?.results ?? []).filter((doc) => !doc.is_deleted);
  const withoutPdf = shown.filter((doc) => !doc.file);
  const rows = [...(data?.results ?? [])].sort((a, b) => rank(a) - rank(b));

  return (
    <>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog("new")} style={{ marginBottom: 16 }}>
        Добавить документ
      </Button>
      {data && (
        <Alert
          style={{ marginBottom: 16 }}
          showIcon
          type={withoutPdf.length ? "warning" : "success"}
          data-testid="documents-without-pdf"
          title={
            withoutPdf.length
              ? `Нужен PDF: ${withoutPdf.length} из ${shown.length} документов — пользователи видят только ссылку на официальный источник`
              : `PDF загружен у всех ${shown.length} документов`
          }
        />
      )}
      <Table<NormativeDocument>
        rowKey="id"
        loading={isLoading}
        dataSource={rows}
        pagination={false}
        locale={{ emptyText: "Документов нет" }}
        rowClassName={(doc) => (doc.is_deleted ? "admin-row-removed" : "")}
        columns={[
          {
            title: "Документ",
            key: "title",
            render: (_, doc) => (
              <DocumentHeading
                kind={doc.kind_label}
                requisites={requisites(doc)}
                gap={0}
                mark={doc.is_deleted && <Tag color="red">Удален</Tag>}
              >
                <Typography.Text delete={doc.is_deleted}>{doc.title}</Typography.Text>
              </DocumentHeading>
            ),
          },
          {
            title: "Файл",
            key: "file",
            width: 260,
            render: (_, doc) => (
              <Space orientation="vertical" size={4} style={{ width: "100%" }}>
                {doc.file ? (
                  <Typography.Text>
                    {doc.file.name} <Typography.Text type="secondary">({fileSize(doc.file.size)})</Typography.Text>
                  </Typography.Text>
                ) : doc.is_deleted ? (
                  <Typography.Text type="secondary">Не загружен</Typography.Text>
                ) : (
                  <Tag color="orange">Нужен PDF</Tag>
                )}
                {replacing?.id === doc.id && <UploadProgress phase={replacing.phase} />}
                {replaceFailure?.id === doc.id && (
                  <Typography.Text type="danger" role="alert">
                    {replaceFailure.text}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
          actionsColumn(330, (doc) => (
            <Space wrap>
              <Upload
                accept="application/pdf,.pdf"
                showUploadList={false}
                disabled={replace.isPending}
                beforeUpload={(file) => {
                  const problem = pdfProblem(file, limits.data?.document_max_bytes ?? Number.POSITIVE_INFINITY);
                  if (problem) message.error(problem);
                  else replace.mutate({ doc, file });
                  return false;
                }}
              >
                <Button
                  icon={<UploadOutlined />}
                  loading={replace.isPending && replace.variables?.doc.id === doc.id}
                  aria-label={`${doc.file ? "Заменить PDF" : "Загрузить PDF"}: ${doc.title}`}
                >
                  {doc.file ? "Заменить PDF" : "Загрузить PDF"}
                </Button>
              </Upload>
              <Button icon={<EditOutlined />} title="Изменить" aria-label={`Изменить: ${doc.title}`} onClick={() => setDialog(doc)} />
              {doc.is_deleted ? (
                <Button
                  icon={<RollbackOutlined />}
                  title="Восстановить"
                  aria-label={`Восстановить: ${doc.title}`}
                  onClick={() => setDeleted.mutate({ doc, deleted: false })}
                />
              ) : (
                <Popconfirm
                  title="Удалить документ?"
                  description="Он пропадет со страницы «Нормативные документы»; его можно восстановить."
                  okText="Удалить"
                  cancelText="Отмена"
                  onConfirm={() => setDeleted.mutate({ doc, deleted: true })}
                >
                  <Button danger icon={<DeleteOutlined />} title="Удалить" aria-label={`Удалить: ${doc.title}`} />
                </Popconfirm>
              )}
            </Space>
          )),
        ]}
      />
      {dialog !== null && <DocumentDialog doc={dialog === "new" ? undefined : dialog} onClose={() => setDialog(null)} />}
    </>
  );
}
