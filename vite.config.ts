/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// One config for the console build and the test projects: the engine and server run in
// node, the console's component tests in jsdom, the real Claude Code suite and the other hosts'
// real-CLI suites in node.
export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  server: { port: 5173, strictPort: false },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'tests/**/*.test.ts', 'bin/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          // The real Claude Code CLI (`npm run test:claude`): not part of `npm run test:unit`.
          name: 'claude',
          environment: 'node',
          include: ['tests/hosts/**/*.claude-test.ts'],
          testTimeout: 120_000,
          hookTimeout: 600_000,
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          // The real CLIs of the other agent hosts (`npm run test:hosts`, one host with
          // `test:hosts:<host>`), each against its scripted fake model API: not part of `test:unit`.
          name: 'hosts',
          environment: 'node',
          include: ['tests/hosts/**/*.hosts-test.ts'],
          testTimeout: 120_000,
          hookTimeout: 600_000,
          pool: 'forks',
          // One host's CLI at a time: the machine has two cores.
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'console',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/test/setup.ts'],
          globals: true,
        },
      },
    ],
  },
});
