import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../../server/protocol';
import { PlanView } from './PlanView';

const plan = (actions: Plan['actions']): Plan => ({
  turnId: 't',
  actions,
  conflicts: [],
  unrestorable: [],
  messages: [],
});

describe('PlanView of a turn with a linked turn', () => {
  it("lists the other project's files under that project", () => {
    const here = plan([{ uri: 'workspace:/app.txt', action: 'restore', conflict: false }]);
    const there = plan([{ uri: 'workspace:/new.txt', action: 'delete', conflict: false }]);
    render(
      <PlanView
        plan={{
          ...here,
          linked: [{ workspaceId: 'beta-0123456789ab', root: '/home/me/beta', turnId: 't_b', plan: there }],
        }}
        conflicts={[]}
        showMessages={false}
      />,
    );
    const group = screen.getByRole('region', { name: 'Also in beta (its linked turn, undone with it)' });
    expect(group.textContent).toContain('delete new.txt');
  });
});
