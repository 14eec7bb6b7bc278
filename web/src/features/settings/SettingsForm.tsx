// The decimals setting of /settings (docs/user-guide.md): decimal places for numeric inputs, kept in local
// storage `comma`. Its form loads right after the page has painted its heading.
import { useState } from "react";
import { Button, Card, Form } from "antd";
import { useAtom } from "jotai";
import { decimalsAtom } from "../../shared/decimalsAtom";
import { MAX_DECIMALS, numericInputProblem, parseNumericInput, storeDecimals } from "../../shared/decimals";
import { NumericInput } from "../../shared/NumericInput";
import { useFeedback } from "../../shared/feedback";

const RULES = { decimals: 0 };
const OUT_OF_RANGE = `Введите целое число от 0 до ${MAX_DECIMALS}`;

/** Why `text` cannot be saved as the decimals setting (the field itself says why it is no integer). */
function rangeProblem(text: string): string | undefined {
  if (numericInputProblem(text, RULES)) return undefined;
  const value = parseNumericInput(text);
  if (value === undefined) return "Укажите количество знаков";
  return value > MAX_DECIMALS ? OUT_OF_RANGE : undefined;
}

export function SettingsForm() {
  const [decimals, setDecimals] = useAtom(decimalsAtom);
  const [text, setText] = useState(String(decimals));
  const [submitted, setSubmitted] = useState(false);
  const { message } = useFeedback();
  // A value outside 0..4 is refused with its reason, never clamped and saved as another value.
  const range = rangeProblem(text);

  const onFinish = () => {
    setSubmitted(true);
    const value = parseNumericInput(text);
    if (numericInputProblem(text, RULES) || range || value === undefined) return;
    setDecimals(storeDecimals(value));
    message.success("Настройки сохранены");
  };

  return (
    <Card style={{ maxWidth: 520 }}>
      <Form layout="vertical" onFinish={onFinish}>
        <Form.Item
          label="Количество знаков после запятой"
          htmlFor="settings-decimals"
          extra={`Целое число от 0 до ${MAX_DECIMALS}; применяется к вводу чисел и округлению результатов (расчеты, конвертер).`}
          {...(range && (submitted || text.trim() !== "") ? { validateStatus: "error" as const, help: range } : {})}
        >
          <NumericInput
            id="settings-decimals"
            value={text}
            decimals={RULES.decimals}
            style={{ width: 120 }}
            onChange={(next) => {
              setText(next);
              setSubmitted(false);
            }}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit">
          Сохранить
        </Button>
      </Form>
    </Card>
  );
}
