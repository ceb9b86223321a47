import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../app/App';
import { session, turn } from '../../test/fixtures';
import { json, mockFetch } from '../../test/mockFetch';
import { renderWithClient, TEST_SESSION_KEY } from '../../test/render';

/** Stands in for the browser's EventSource so a test can push server events. */
class FakeEventSource {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSED = 2;
  static last: FakeEventSource | null = null;
  readyState = FakeEventSource.CONNECTING;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  private listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();

  constructor(readonly url: string) {
    FakeEventSource.last = this;
  }
  addEventListener(name: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
  }
  removeEventListener() {}
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  open() {
    this.readyState = FakeEventSource.OPEN;
    this.onopen?.();
  }
  emit(name: string, data: unknown) {
    for (const listener of this.listeners.get(name) ?? [])
      listener(new MessageEvent(name, { data: JSON.stringify(data) }));
  }
  fail() {
    this.readyState = FakeEventSource.CLOSED;
    this.onerror?.();
  }
}

function serve(turnCount: number) {
  mockFetch({
    'GET /api/sessions': json({ sessions: [session({ turnCount })] }),
    'GET /api/store': json({ sessions: 1, turns: turnCount, blobs: 0, bytes: 0, dataDir: '/d' }),
    'GET /api/sessions/s1/turns': json({ turns: Array.from({ length: turnCount }, (_, index) => turn(index + 1)) }),
    'GET /api/turns/*': (call) =>
      json({ turn: turn(Number(call.path.split('/')[3].slice(1))), files: [], entries: [] }),
  });
}

beforeEach(() => vi.stubGlobal('EventSource', FakeEventSource));
afterEach(() => vi.unstubAllGlobals());

describe('live events', () => {
  it('a committed turn shows up in the timeline without a reload', async () => {
    serve(1);
    renderWithClient(<App />);
    expect(await screen.findByRole('option', { name: /^#1 / })).toBeInTheDocument();
    FakeEventSource.last!.open();
    expect(await screen.findByText('Live')).toBeInTheDocument();
    expect(FakeEventSource.last!.url).toBe(`/api/events?session=${TEST_SESSION_KEY}`);

    serve(2);
    FakeEventSource.last!.emit('turn-committed', { sessionId: 's1', turnId: 't2' });
    expect(await screen.findByRole('option', { name: /^#2 / })).toBeInTheDocument();
  });

  it('falls back to polling when the event stream gives up', async () => {
    serve(1);
    renderWithClient(<App />);
    await screen.findByRole('option', { name: /^#1 / });
    FakeEventSource.last!.fail();
    expect(await screen.findByText('Polling')).toBeInTheDocument();
  });
});
