import type { ReactNode } from "react";
import { ConfigProvider, theme, type ThemeConfig } from "antd";
import ruRU from "antd/locale/ru_RU";
import { QueryClientProvider } from "@tanstack/react-query";
import { Provider as JotaiProvider } from "jotai";
import { LoadingIndicator } from "../features/shell/LoadingIndicator";
import { FeedbackHost } from "../shared/feedback";
import { useReducedMotion } from "../shared/useMediaQuery";
import { AppRoutes } from "./router";
import { appStore, queryClient } from "./store";

/** antd's motions (a modal's zoom, a drawer's slide, a list's slide, a button's wave) as the user's
 *  system asks: none when it asks for reduced motion. Always a theme object, so that a change of the
 *  setting re-themes the page instead of remounting it.
 *  zeroRuntime: the components' styles come from antd's pre-built stylesheet (imported in main.tsx)
 *  instead of being generated in the browser on every page load; the theme's tokens (these motion
 *  durations, the phone's sizes in Shell.tsx) still reach them as CSS variables written at run time. */
const MOTION_ON: ThemeConfig = { zeroRuntime: true, token: { motion: true } };
const MOTION_OFF: ThemeConfig = { zeroRuntime: true, token: { motion: false } };
const WAVE_ON = { disabled: false };
const WAVE_OFF = { disabled: true };

export function App() {
  const reducedMotion = useReducedMotion();
  return (
    <JotaiProvider store={appStore}>
      <QueryClientProvider client={queryClient}>
        <ConfigProvider locale={ruRU} theme={reducedMotion ? MOTION_OFF : MOTION_ON} wave={reducedMotion ? WAVE_OFF : WAVE_ON}>
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
