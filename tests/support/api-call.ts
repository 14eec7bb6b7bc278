// One JSON call of a running server's API with a user's token, for the tests and benches that start a
// server of their own (a process, or startLocalServer): the status and the body, whatever the status.
export async function callApi(url: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}/api${path}`, {
    method,
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
