// antd's components' styles, pre-built for this antd version: the app's theme runs in zeroRuntime
// mode (app/App.tsx), so the browser does not generate them.
import "antd/dist/antd.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import dayjs from "dayjs";
import "dayjs/locale/ru";
import { App } from "./app/App";
import { connectClientToSession } from "./app/session";

dayjs.locale("ru");
// Before the first render: the guard's start-up token check may already need a refresh.
connectClientToSession();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
