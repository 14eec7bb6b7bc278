// SPEC 2 /settings: decimal places for numeric inputs, kept in local storage `comma`.
// Below it, the instruction and presentation videos (SettingsVideos).
import { App, Button, Card, Form, InputNumber, Typography } from "antd";
import { useAtom } from "jotai";
import { decimalsAtom } from "./atoms";
import { MAX_DECIMALS, storeDecimals } from "../../shared/decimals";
import { SettingsVideos } from "./SettingsVideos";

interface SettingsForm {
  decimals: number | null;
}

export default function SettingsPage() {
  const [decimals, setDecimals] = useAtom(decimalsAtom);
  const { message } = App.useApp();

  const onFinish = ({ decimals: value }: SettingsForm) => {
    setDecimals(storeDecimals(value ?? 0));
    message.success("Настройки сохранены");
  };

  return (
    <>
      <Typography.Title level={2} style={{ marginTop: 0 }}>
        Настройки
      </Typography.Title>
      <Card style={{ maxWidth: 520 }}>
        <Form<SettingsForm> layout="vertical" initialValues={{ decimals }} onFinish={onFinish}>
          <Form.Item
            label="Количество знаков после запятой"
            name="decimals"
            extra={`Целое число от 0 до ${MAX_DECIMALS}; применяется к вводу чисел и округлению результатов (расчеты, конвертер).`}
            rules={[
              { required: true, message: "Укажите количество знаков" },
              {
                type: "integer",
                min: 0,
                max: MAX_DECIMALS,
                message: `Введите целое число от 0 до ${MAX_DECIMALS}`,
              },
            ]}
          >
            <InputNumber min={0} max={MAX_DECIMALS} precision={0} step={1} style={{ width: 120 }} />
          </Form.Item>
          <Button type="primary" htmlType="submit">
            Сохранить
          </Button>
        </Form>
      </Card>
      <SettingsVideos />
    </>
  );
}
