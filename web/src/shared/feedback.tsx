// Short confirmations and errors («Расчет создан») for every screen, through antd's message.
// antd's App would provide them, but it brings message, notification and modal into every page's
// first script; here the host that shows them loads right after the page, and what a screen says
// before it is there (it never is, in practice: a user has not clicked anything yet) waits for it.
import { lazy, Suspense, type ReactNode } from "react";
import type { MessageInstance } from "antd/es/message/interface";

// The host mounted last shows them (the page's one host; a component test mounts one per test).
let messageApi: MessageInstance | undefined;
let waiting: Array<(api: MessageInstance) => void> = [];

function messageApiReady(api: MessageInstance): void {
  messageApi = api;
  const ready = waiting;
  waiting = [];
  for (const show of ready) show(api);
}

const withApi = (show: (api: MessageInstance) => void) => void (messageApi ? show(messageApi) : waiting.push(show));

const feedback = {
  message: {
    success: (content: ReactNode) => withApi((api) => void api.success(content)),
    warning: (content: ReactNode) => withApi((api) => void api.warning(content)),
    error: (content: ReactNode) => withApi((api) => void api.error(content)),
  },
};

export function useFeedback() {
  return feedback;
}

const MessageHost = lazy(() => import("./MessageHost"));

/** Renders where the messages appear; once, inside the app's ConfigProvider (its locale and theme). */
export function FeedbackHost() {
  return (
    <Suspense fallback={null}>
      <MessageHost onReady={messageApiReady} />
    </Suspense>
  );
}
