// Short confirmations and errors («Расчет создан») for every screen, through antd's message.
// antd's App would provide them, but it brings message, notification and modal into every page's
// first script; here the host that shows them loads right after the page, and what a screen says
// before it is there (it never is, in practice: a user has not clicked anything yet) waits for it.
import { lazy, Suspense, type ReactNode } from "react";
import type { MessageInstance } from "antd/es/message/interface";

let messageApiReady: (api: MessageInstance) => void = () => {};
const messageApi = new Promise<MessageInstance>((resolve) => {
  messageApiReady = resolve;
});

const feedback = {
  message: {
    success: (content: ReactNode) => void messageApi.then((api) => api.success(content)),
    warning: (content: ReactNode) => void messageApi.then((api) => api.warning(content)),
    error: (content: ReactNode) => void messageApi.then((api) => api.error(content)),
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
