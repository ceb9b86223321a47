import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Turn } from '../../../server/protocol';
import { LinkedTurns } from './LinkedTurns';

const turn = (linked?: Turn['linked']) => ({ turnId: 't_a', sessionId: 's1', linked }) as Turn;

describe('LinkedTurns', () => {
  it('names the other project and links to its turn', () => {
    render(<LinkedTurns turn={turn([{ workspaceId: 'beta-0123456789ab', root: '/home/me/beta', turnId: 't_b' }])} />);
    const link = screen.getByRole('link', { name: 'beta' });
    expect(link.getAttribute('href')).toBe('?workspace=beta-0123456789ab&session=s1&turn=t_b');
    expect(screen.getByText(/Also changed/)).toBeTruthy();
  });

  it('shows nothing for a turn without linked turns', () => {
    const { container } = render(<LinkedTurns turn={turn()} />);
    expect(container.textContent).toBe('');
  });
});
