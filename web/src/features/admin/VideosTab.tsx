// «Видео»: the instruction and presentation videos of /settings (MP4 or WebM, ≤ 500 MB). The file
// goes straight to storage with upload progress (directUpload.ts: an S3 presigned PUT in AWS, the
// API's streamed upload route locally); the server then checks its first bytes and registers it.
import { fileSize } from "@server/contract";
import { useState } from "react";
import { Alert, Button, Card, Col, Descriptions, Popconfirm, Progress, Row, Typography, Upload } from "antd";
import { DeleteOutlined, UploadOutlined } from "@ant-design/icons";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { displayDateTime } from "../../shared/dates";
import { mediaKey, type MediaStatus } from "../../api/media";
import { adminKeys, errorText, mediaUpload, removeMedia, useAdminMedia, useUploadLimits } from "../../api/admin";
import { phaseText, uploadDirect, type UploadPhase } from "../../api/directUpload";
import { useFeedback } from "../../shared/feedback";
import { VIDEO_ACCEPT, videoType } from "./fileChecks";

function VideoCard({ media }: { media: MediaStatus }) {
  const limits = useUploadLimits();
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const invalidate = async () => {
    await queryClient.invalidateQueries({ queryKey: adminKeys.media });
    await queryClient.invalidateQueries({ queryKey: mediaKey });
    await queryClient.invalidateQueries({ queryKey: adminKeys.auditAll });
  };
  const [phase, setPhase] = useState<UploadPhase | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const upload = useMutation({
    mutationFn: (file: File) => {
      setFailure(null);
      return uploadDirect(mediaUpload(media.kind), file, videoType(file)!, setPhase);
    },
    onSuccess: async () => {
      await invalidate();
      message.success(`${media.label}: видео загружено`);
    },
    onError: (error) => {
      setFailure(errorText(error));
      message.error(errorText(error));
    },
    onSettled: () => setPhase(null),
  });
  const remove = useMutation({
    mutationFn: () => removeMedia(media.kind),
    onSuccess: async () => {
      await invalidate();
      message.success(`${media.label}: видео удалено`);
    },
    onError: (error) => message.error(errorText(error)),
  });

  return (
    <Card title={media.label}>
      {media.url ? (
        <Descriptions
          column={1}
          size="small"
          items={[
            { key: "type", label: "Формат", children: media.content_type },
            { key: "size", label: "Размер", children: fileSize(media.size ?? 0) },
            { key: "at", label: "Загружено", children: media.uploaded_at ? displayDateTime(media.uploaded_at) : "—" },
          ]}
        />
      ) : (
        <Typography.Paragraph type="secondary">Видео не загружено</Typography.Paragraph>
      )}
      <Upload
        accept={VIDEO_ACCEPT}
        showUploadList={false}
        beforeUpload={(file) => {
          if (!videoType(file)) message.error("Ожидается видео MP4 или WebM");
          else if (limits.data && file.size > limits.data.video_max_bytes)
            message.error(`Файл больше ${fileSize(limits.data.video_max_bytes)}`);
          else upload.mutate(file);
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} loading={upload.isPending} aria-label={`Загрузить видео: ${media.label}`}>
          {upload.isPending ? "Загрузка…" : media.url ? "Заменить видео" : "Загрузить видео"}
        </Button>
      </Upload>
      {phase && (
        <div role="status" aria-label={phaseText(phase)} style={{ marginTop: 12 }}>
          <Progress
            percent={phase.phase === "sending" ? phase.percent : 100}
            showInfo={false}
            status={phase.phase === "checking" ? "active" : "normal"}
          />
          <Typography.Text type="secondary">{phaseText(phase)}</Typography.Text>
        </div>
      )}
      {failure && !upload.isPending && <Alert type="error" showIcon role="alert" title={failure} style={{ marginTop: 12 }} />}
      {media.url && (
        <Popconfirm title="Удалить видео?" okText="Удалить" cancelText="Отмена" onConfirm={() => remove.mutate()}>
          <Button danger icon={<DeleteOutlined />} style={{ marginLeft: 8 }} loading={remove.isPending}>
            Удалить
          </Button>
        </Popconfirm>
      )}
    </Card>
  );
}

export function VideosTab() {
  const limits = useUploadLimits();
  const { data, isLoading } = useAdminMedia();
  return (
    <Row gutter={[16, 16]}>
      {isLoading && (
        <Col span={24}>
          <Card loading />
        </Col>
      )}
      {(data?.results ?? []).map((media) => (
        <Col key={media.kind} xs={24} lg={12}>
          <VideoCard media={media} />
        </Col>
      ))}
      <Col span={24}>
        <Typography.Text type="secondary">
          MP4 или WebM{limits.data ? `, не больше ${fileSize(limits.data.video_max_bytes)}` : ""}. Видео показываются на странице
          «Настройки».
        </Typography.Text>
      </Col>
    </Row>
  );
}
