import { App as AntApp, ConfigProvider } from "antd";
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
          <AntApp style={{ height: "100%" }}>
            <LoadingIndicator />
            <FeedbackHost />
            <AppRoutes />
          </AntApp>
        </ConfigProvider>
      </QueryClientProvider>
    </JotaiProvider>
  );
}
