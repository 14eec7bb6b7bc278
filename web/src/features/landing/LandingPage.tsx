// The landing page (docs/user-guide.md): what the platform is, who made it, and the way in.
import { Button, Card, Flex, Typography } from "antd";
import { useNavigate } from "react-router-dom";
import { FUNDING_NOTE, PLATFORM_SUBTITLE, PLATFORM_TITLE } from "../../shared/platformTexts";

export default function LandingPage() {
  const navigate = useNavigate();
  return (
    <Card>
      <Flex vertical align="center" gap={8} style={{ padding: "48px 16px", textAlign: "center" }}>
        <Typography.Title level={1} style={{ margin: 0, maxWidth: 820 }}>
          {PLATFORM_TITLE}
        </Typography.Title>
        <Typography.Paragraph style={{ fontSize: 18, maxWidth: 720 }}>{PLATFORM_SUBTITLE}</Typography.Paragraph>
        <Button type="primary" size="large" onClick={() => navigate("/projects")}>
          Начать работу
        </Button>
        <Typography.Paragraph type="secondary" style={{ marginTop: 40, maxWidth: 720 }}>
          {FUNDING_NOTE}
        </Typography.Paragraph>
      </Flex>
    </Card>
  );
}
