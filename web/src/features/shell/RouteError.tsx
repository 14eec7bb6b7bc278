// What a render error shows instead of a blank screen (docs/user-guide.md): a Russian message and a reload
// button, in place of the part of the route that failed.
import { Button } from "antd";
import { Component, lazy, Suspense, type ReactNode } from "react";
import { isChunkLoadError } from "./routeError";

// antd's Result (with its illustrations) is loaded only when an error page is shown; until then, or
// when that load itself fails (the server is gone), the same texts show plainly.
const Result = lazy(() => import("antd/es/result"));

/** Catches what its children throw while rendering; a new `resetKey` (the next page) tries again. */
export class RouteErrorBoundary extends Component<{ resetKey: string; children: ReactNode }, { error: unknown; failedAt?: string }> {
  override state: { error: unknown; failedAt?: string } = { error: undefined };
  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error("unknown error") };
  }
  static getDerivedStateFromProps(props: { resetKey: string }, state: { error: unknown; failedAt?: string }) {
    if (state.error === undefined) return null;
    if (state.failedAt === undefined) return { failedAt: props.resetKey };
    return state.failedAt === props.resetKey ? null : { error: undefined, failedAt: undefined };
  }
  override componentDidCatch(error: unknown) {
    // Logged so a support engineer can see the cause in the browser console.
    console.error(error);
  }
  override render() {
    return this.state.error === undefined ? this.props.children : <RouteError error={this.state.error} />;
  }
}

export function RouteError({ error }: { error: unknown }) {
  const title = isChunkLoadError(error) ? "Не удалось загрузить часть приложения" : "Произошла непредвиденная ошибка";
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
        <Result status="error" title={title} subTitle={subTitle} extra={reload} />
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
