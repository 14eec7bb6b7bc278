// The unit tier's setup: the component tests (*.test.tsx, `// @vitest-environment jsdom`) get what
// the web app needs of a browser that jsdom lacks (dom-globals.ts); the tier's other files run in
// Node and get nothing.
export {};
if (typeof window !== "undefined") await import("./dom-globals");
