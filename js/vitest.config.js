import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.js"],
    setupFiles: ["src/test_setup.js"],
    // One jsdom per worker thread, shared by the test files it runs: making a
    // jsdom per file took longer than the tests themselves. The files that
    // draw remove their elements and restore their mocks and stubs in afterEach.
    pool: "threads",
    isolate: false,
  },
});
