import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// jsdom lays nothing out: give elements a viewport-sized box so the virtualized timeline
// renders the rows a browser would show.
Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 600 });
Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 800 });

afterEach(() => cleanup());

// Whole-app tests render the diff viewer in jsdom; on a busy 2-core machine that takes seconds.
vi.setConfig({ testTimeout: 20_000 });
