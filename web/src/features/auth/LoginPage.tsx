// docs/user-guide.md, /login. The server may demand a Guardant hardware-key code (401 with code
// "guardant_required"); only then does the extra field appear.
import { useState } from "react";
import { Alert, Button, Card, Flex, Form, Input, Typography } from "antd";
import { useLocation, useNavigate } from "react-router-dom";
import { PLATFORM_TITLE } from "../../shared/platformTexts";
import { useLogin } from "./api";
import { GUARDANT_REQUIRED, loginErrorText } from "./loginError";
import { returnPathFrom } from "./returnPath";

interface LoginForm {
  // docs/user-guide.md: the fields are not validated here beyond the e-mail input type; the server answers.
  email?: string;
  password?: string;
  guardant_code?: string;
}

export default function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  // Back to the page that sent the visitor here (a deep link, an ended session), else «/».
  const login = useLogin(() => navigate(returnPathFrom(location.state), { replace: true }));
  const [needsGuardant, setNeedsGuardant] = useState(false);
  // The code sent with the last attempt: an empty one refused means "enter it", not "wrong code".
  const [sentCode, setSentCode] = useState("");

  const onFinish = (values: LoginForm) => {
    const guardant_code = values.guardant_code?.trim() ?? "";
    setSentCode(guardant_code);
    login.mutate(
      { email: (values.email ?? "").trim(), password: values.password ?? "", guardant_code },
      { onError: (error) => error.code === GUARDANT_REQUIRED && setNeedsGuardant(true) },
    );
  };

  return (
    <Flex justify="center" align="center" style={{ minHeight: "100%", padding: 16, background: "#f0f2f5" }}>
      <Card style={{ width: 420, maxWidth: "100%" }}>
        <Typography.Title level={3} style={{ textAlign: "center", marginTop: 0 }}>
          {PLATFORM_TITLE}
        </Typography.Title>
        <Form<LoginForm> layout="vertical" onFinish={onFinish} requiredMark={false} name="login">
          <Form.Item label="Логин" name="email">
            <Input type="email" autoComplete="username" autoFocus />
          </Form.Item>
          <Form.Item label="Пароль" name="password">
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          {needsGuardant && (
            <Form.Item label="Код ключа Guardant" name="guardant_code">
              <Input autoComplete="one-time-code" />
            </Form.Item>
          )}
          <Button type="primary" htmlType="submit" block loading={login.isPending}>
            Вход
          </Button>
          {login.error && (
            <Alert style={{ marginTop: 16 }} type="error" showIcon role="alert" title={loginErrorText(login.error, sentCode)} />
          )}
        </Form>
      </Card>
    </Flex>
  );
}
