import type { ReactNode } from "react";
import { ConfigProvider, theme } from "antd";
import ruRU from "antd/locale/ru_RU";
import { QueryClientProvider } from "@tanstack/react-query";
import { Provider as JotaiProvider } from "jotai";
import { LoadingIndicator } from "../features/shell/LoadingIndicator";
import { FeedbackHost } from "../shared/feedback";
import { AppRoutes } from "./router";
import { appStore, queryClient } from "./store";

export function App() {
  return (
    <JotaiProvider store={appStore}>
      <QueryClientProvider client={queryClient}>
        <ConfigProvider locale={ruRU}>
          <TextFrame>
            <LoadingIndicator />
            <FeedbackHost />
            <AppRoutes />
          </TextFrame>
        </ConfigProvider>
      </QueryClientProvider>
    </JotaiProvider>
  );
}

/** The theme's text colour, size and font for everything inside, as antd's App would set them. */
function TextFrame({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  const style = {
    height: "100%",
    color: token.colorText,
    fontSize: token.fontSize,
    lineHeight: token.lineHeight,
    fontFamily: token.fontFamily,
  };
  return <div style={style}>{children}</div>;
}
