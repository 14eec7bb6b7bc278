// A button that opens the file picker and hands the chosen file on at once, with no form to keep it
// in: an administrator's certificate roots and a climate period's signature are sent so. The picker
// is emptied on each choice, so the same file may be chosen again after a refusal.
import { UploadOutlined } from "@ant-design/icons";
import { Button, type ButtonProps } from "antd";
import { type ReactNode, useRef } from "react";

export function FileButton({
  accept,
  label,
  loading,
  type,
  onFile,
  children,
}: {
  accept: string;
  /** The picker's accessible name («Файл подписи»). */
  label: string;
  loading?: boolean;
  type?: ButtonProps["type"];
  onFile: (file: File) => void;
  children: ReactNode;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <span>
      <input
        ref={input}
        type="file"
        accept={accept}
        aria-label={label}
        style={{ display: "none" }}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file) onFile(file);
        }}
      />
      <Button type={type} icon={<UploadOutlined />} loading={loading} onClick={() => input.current?.click()}>
        {children}
      </Button>
    </span>
  );
}
