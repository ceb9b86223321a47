import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { statePath, turnbackStateDir, workspaceIdOf } from './state-dir.js';

describe('the state dir', () => {
  it('is $XDG_STATE_HOME/turnback when it is absolute, else ~/.local/state/turnback', () => {
    expect(turnbackStateDir({ XDG_STATE_HOME: '/x/state', HOME: '/h' })).toBe('/x/state/turnback');
    // A relative XDG_STATE_HOME is ignored (the XDG spec), as is an empty one.
    expect(turnbackStateDir({ XDG_STATE_HOME: 'rel/state', HOME: '/h' })).toBe('/h/.local/state/turnback');
    expect(turnbackStateDir({ XDG_STATE_HOME: '', HOME: '/h' })).toBe('/h/.local/state/turnback');
  });

  it('names its files', () => {
    const env = { XDG_STATE_HOME: '/s' };
    expect(statePath('service', env)).toBe('/s/turnback/service.json');
    expect(statePath('consoleToken', env)).toBe('/s/turnback/console-token');
    expect(statePath('agentToken', env)).toBe('/s/turnback/agent-token');
    expect(statePath('workspaces', env)).toBe('/s/turnback/workspaces.json');
  });

  it('gives a workspace the id that is also the data dir name of the per-folder serve', () => {
    const hash = createHash('sha256').update('/home/ann/my app').digest('hex').slice(0, 12);
    expect(workspaceIdOf('/home/ann/my app')).toBe(`my app-${hash}`);
    expect(workspaceIdOf('/')).toMatch(/^root-[0-9a-f]{12}$/);
  });
});
