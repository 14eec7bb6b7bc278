// Replaces the router's default «Unexpected Application Error!» page: a Russian message and a
// reload button instead of a blank screen (SPEC 8).
import { Button, Result } from "antd";
import { isRouteErrorResponse, useRouteError } from "react-router-dom";
import { isChunkLoadError } from "./routeError";

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

  return (
    <Result
      status={notFound ? "404" : "error"}
      title={title}
      subTitle={subTitle}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          Перезагрузить страницу
        </Button>
      }
    />
  );
}
