// The holder of antd's message for the whole app (see feedback.tsx), loaded after the first paint.
import { message } from "antd";
import { useEffect } from "react";
import type { MessageInstance } from "antd/es/message/interface";

export default function MessageHost({ onReady }: { onReady(api: MessageInstance): void }) {
  const [api, holder] = message.useMessage();
  useEffect(() => onReady(api), [api, onReady]);
  return holder;
}
