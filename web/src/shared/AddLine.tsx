// A line of text fields and the button that adds what they say (a gateway key, a webhook, a comment):
// the button waits while the add runs and stays off while the first field is blank; the fields are
// emptied once the add succeeded, and kept as typed when it was refused (the caller shows why).
import { useState, type CSSProperties } from "react";
import { Button, Flex, Input, Space } from "antd";

interface Field {
  /** The field's accessible name. */
  label: string;
  placeholder: string;
  maxLength: number;
  style?: CSSProperties;
}

interface Props {
  fields: readonly Field[];
  button: string;
  /** Adds the texts as typed. */
  onAdd(texts: string[]): Promise<unknown>;
  /** A plain button rather than the primary one (the card's own action). */
  plain?: boolean;
  /** The fields and the button joined as one control rather than spaced. */
  compact?: boolean;
  /** Spaced fields wrap onto another line where the line is narrow. */
  wrap?: boolean;
  style?: CSSProperties;
}

export function AddLine({ fields, button, onAdd, plain, compact, wrap, style }: Props) {
  const [texts, setTexts] = useState(() => fields.map(() => ""));
  const [adding, setAdding] = useState(false);
  const add = () => {
    setAdding(true);
    onAdd(texts)
      .then(
        () => setTexts(fields.map(() => "")),
        () => undefined,
      )
      .finally(() => setAdding(false));
  };
  const items = (
    <>
      {fields.map((field, i) => (
        <Input
          key={field.label}
          aria-label={field.label}
          placeholder={field.placeholder}
          style={field.style}
          maxLength={field.maxLength}
          value={texts[i]}
          onChange={(e) => {
            const typed = e.target.value;
            setTexts((all) => all.map((text, j) => (j === i ? typed : text)));
          }}
        />
      ))}
      <Button type={plain ? undefined : "primary"} loading={adding} disabled={!texts[0].trim()} onClick={add}>
        {button}
      </Button>
    </>
  );
  return compact ? (
    <Space.Compact style={style}>{items}</Space.Compact>
  ) : (
    <Flex wrap={wrap} gap={8} style={style}>
      {items}
    </Flex>
  );
}
