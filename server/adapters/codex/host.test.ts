import { describe, expect, it } from 'vitest';
import { hostNamed } from '../hosts.js';
import { codexHost } from './host.js';

describe('the codex host', () => {
  it('is served under its name, its sessions recorded as codex cli ones', () => {
    expect(hostNamed('codex')).toBe(codexHost);
    expect(codexHost).toMatchObject({ name: 'codex', platform: 'codex', sessionType: 'cli' });
  });

  it('tells the person a line through the output field every Codex hook event reads: systemMessage on stdout', () => {
    const notice = codexHost.notice('turnback is not recording: the disk is full');
    expect(notice.stderr).toBeUndefined();
    expect(notice.stdout?.endsWith('\n')).toBe(true);
    expect(JSON.parse(notice.stdout!)).toEqual({ systemMessage: 'turnback is not recording: the disk is full' });
  });
});
