import { Flex, Spin } from "antd";

/** The in-page loading state of docs/user-guide.md: a spinner with the text «Loading ...». */
export function PageLoading() {
  return (
    <Flex justify="center" align="center" gap={12} style={{ padding: 48 }} role="status">
      <Spin />
      <span>Loading ...</span>
    </Flex>
  );
}
