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

/** How long a message stays: antd's own three seconds, paused while the pointer rests on it. */
const SHOWN_MS = 3_000;
let opened = 0;

/** Shows a message for SHOWN_MS. antd's own timer would render the message again on every animation
 *  frame while it runs (for a progress bar the app does not show), keeping the page busy for the
 *  whole three seconds; the message is opened without it and closed by a plain timer instead. */
function show(api: MessageInstance, type: "success" | "warning" | "error", content: ReactNode): void {
  const key = `feedback-${++opened}`;
  let left = SHOWN_MS;
  let since = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    if (timer !== undefined) return;
    since = Date.now();
    timer = setTimeout(() => api.destroy(key), left);
  };
  const pause = () => {
    if (timer === undefined) return;
    clearTimeout(timer);
    timer = undefined;
    left -= Date.now() - since;
  };
  // The pointer resting on the text pauses the timer, as on antd's own message.
  const hover = (text: HTMLSpanElement | null) => {
    text?.addEventListener("mouseenter", pause);
    text?.addEventListener("mouseleave", run);
  };
  api.open({ key, type, duration: 0, content: <span ref={hover}>{content}</span> });
  run();
}

const feedback = {
  message: {
    success: (content: ReactNode) => withApi((api) => show(api, "success", content)),
    warning: (content: ReactNode) => withApi((api) => show(api, "warning", content)),
    error: (content: ReactNode) => withApi((api) => show(api, "error", content)),
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
