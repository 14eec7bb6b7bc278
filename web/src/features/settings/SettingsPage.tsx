// docs/user-guide.md, /settings: decimal places for numeric inputs, kept in local storage `comma` (SettingsForm).
// Below it, the instruction and presentation videos (SettingsVideos) and the company's webhooks (WebhooksCard). The page paints its heading
// first and asks for the videos at once; the form and the players load right after.
import { lazy, Suspense } from "react";
import { Typography } from "antd";
import { LazyLoading } from "../../shared/LazyLoading";
import { useMedia } from "../../api/media";

const SettingsForm = lazy(() => import("./SettingsForm").then((m) => ({ default: m.SettingsForm })));
const SettingsVideos = lazy(() => import("./SettingsVideos").then((m) => ({ default: m.SettingsVideos })));
const WebhooksCard = lazy(() => import("./WebhooksCard").then((m) => ({ default: m.WebhooksCard })));

export default function SettingsPage() {
  // The videos' signed URLs are asked for while the players' code loads.
  useMedia();

  return (
    <>
      <Typography.Title level={2} style={{ marginTop: 0 }}>
        Настройки
      </Typography.Title>
      <Suspense fallback={<LazyLoading />}>
        <SettingsForm />
      </Suspense>
      <Suspense fallback={null}>
        <SettingsVideos />
      </Suspense>
      <Suspense fallback={null}>
        <WebhooksCard />
      </Suspense>
    </>
  );
}
