import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '../test/mockFetch';
import { renderWithClient } from '../test/render';
import { AgentNoticeToggle } from './AgentNoticeToggle';

describe('AgentNoticeToggle', () => {
  it("shows the service's setting and turns telling the agent off", async () => {
    const calls = mockFetch({
      'GET /api/settings/agent-notices': json({ tellAgents: true, quietHosts: [] }),
      'POST /api/settings/agent-notices': (call) => json({ ...(call.body as object), quietHosts: [] }),
    });
    renderWithClient(<AgentNoticeToggle />);
    const box = await screen.findByRole('checkbox', { name: 'Tell the agent what I undo' });
    expect(box).toBeChecked();
    fireEvent.click(box);
    await waitFor(() => expect(box).not.toBeChecked());
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      { method: 'POST', path: '/api/settings/agent-notices', body: { tellAgents: false } },
    ]);
  });
});
