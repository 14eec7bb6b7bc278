// docs/user-guide.md, /settings: the instruction and presentation videos, played in the page from the URL the
// server returns: signed and short-lived (a <video> cannot send the bearer header;
// functions/src/http/UPLOADS.md), the API's own stream locally, an S3 presigned URL in AWS (the
// video plays and seeks straight from storage). When one has expired, the player asks for a fresh
// URL and carries on at the same second.
import { useRef, useState } from "react";
import { Card, Col, Row, Typography } from "antd";
import { VideoCameraOutlined } from "@ant-design/icons";
import { NO_VIDEOS, useMedia, type MediaStatus } from "../../api/media";

function Player({ media, onExpired }: { media: MediaStatus; onExpired: () => Promise<unknown> }) {
  const video = useRef<HTMLVideoElement>(null);
  const resumeAt = useRef<number | null>(null);
  const [failed, setFailed] = useState(false);

  const onError = () => {
    const expired = media.expires_at !== null && Date.parse(media.expires_at) - 5_000 <= Date.now();
    if (!expired) {
      setFailed(true);
      return;
    }
    resumeAt.current = video.current?.currentTime ?? null;
    void onExpired();
  };

  return (
    <>
      <video
        ref={video}
        key={media.url}
        src={media.url ?? undefined}
        controls
        preload="metadata"
        aria-label={media.label}
        style={{ width: "100%", maxHeight: 420, background: "#000", borderRadius: 6 }}
        onError={onError}
        onLoadedMetadata={() => {
          setFailed(false);
          if (resumeAt.current !== null && video.current) {
            video.current.currentTime = resumeAt.current;
            resumeAt.current = null;
          }
        }}
      />
      {failed && <Typography.Text type="danger">Не удалось воспроизвести видео. Обновите страницу.</Typography.Text>}
    </>
  );
}

export function SettingsVideos() {
  const { data, isLoading, isError, refetch } = useMedia();

  return (
    <Row gutter={[16, 16]} style={{ marginTop: 24 }}>
      {(data?.results ?? NO_VIDEOS).map((media) => (
        <Col key={media.kind} xs={24} xl={12}>
          <Card title={media.label} loading={isLoading}>
            {isError ? (
              <Typography.Text type="danger">Не удалось загрузить сведения о видео.</Typography.Text>
            ) : media.url ? (
              <Player media={media} onExpired={refetch} />
            ) : (
              <div style={{ textAlign: "center", padding: "32px 0" }} role="status">
                <VideoCameraOutlined style={{ fontSize: 32, color: "#bfbfbf" }} />
                <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
                  Видео не загружено
                </Typography.Paragraph>
              </div>
            )}
          </Card>
        </Col>
      ))}
    </Row>
  );
}
