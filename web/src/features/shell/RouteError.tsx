// Replaces the router's default «Unexpected Application Error!» page: a Russian message and a
// reload button instead of a blank screen (SPEC 8).
import { Button } from "antd";
import { Component, lazy, Suspense, type ReactNode } from "react";
import { isRouteErrorResponse, useRouteError } from "react-router-dom";
import { isChunkLoadError } from "./routeError";

// antd's Result (with its illustrations) is loaded only when an error page is shown; until then, or
// when that load itself fails (the server is gone), the same texts show plainly.
const Result = lazy(() => import("antd/es/result"));

export function RouteError() {
  const error = useRouteError();
  // Logged so a support engineer can see the cause in the browser console.
  console.error(error);

  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const title = isChunkLoadError(error)
    ? "Не удалось загрузить часть приложения"
    : notFound
      ? "Страница не найдена"
      : "Произошла непредвиденная ошибка";
  const subTitle = isChunkLoadError(error)
    ? "Возможно, платформа обновилась или прервалась связь с сервером. Перезагрузите страницу."
    : "Перезагрузите страницу. Если ошибка повторится, сообщите администратору.";

  const reload = (
    <Button type="primary" onClick={() => window.location.reload()}>
      Перезагрузить страницу
    </Button>
  );
  const plain = (
    <div role="alert" style={{ padding: 48, textAlign: "center" }}>
      <h2>{title}</h2>
      <p>{subTitle}</p>
      {reload}
    </div>
  );
  return (
    <ResultBoundary fallback={plain}>
      <Suspense fallback={plain}>
        <Result status={notFound ? "404" : "error"} title={title} subTitle={subTitle} extra={reload} />
      </Suspense>
    </ResultBoundary>
  );
}

/** Shows `fallback` if loading the Result chunk fails. */
class ResultBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
