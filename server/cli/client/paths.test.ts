// Command-line paths (relative to the cwd) and workspace URIs, both ways.
import { describe, expect, it } from 'vitest';
import { CliError } from './errors.js';
import { displayPath, uriOfPath } from './paths.js';

const root = '/home/ann/project';

describe('uriOfPath', () => {
  it('maps a cwd-relative or absolute path inside the workspace to its URI', () => {
    expect(uriOfPath(root, `${root}/src`, 'a.ts')).toBe('workspace:/src/a.ts');
    expect(uriOfPath(root, `${root}/src`, '../README.md')).toBe('workspace:/README.md');
    expect(uriOfPath(root, '/tmp', `${root}/lib/x.js`)).toBe('workspace:/lib/x.js');
    expect(uriOfPath(root, root, './dir/')).toBe('workspace:/dir');
  });

  it('refuses the root itself and anything outside it (a usage error, exit 2)', () => {
    for (const typed of ['.', '..', '../project-other/a', '/etc/passwd']) {
      expect(() => uriOfPath(root, root, typed)).toThrow(CliError);
      try {
        uriOfPath(root, root, typed);
      } catch (err) {
        expect((err as CliError).exitCode).toBe(2);
      }
    }
  });
});

describe('displayPath', () => {
  it('shows a URI relative to the cwd, and other roots as they are', () => {
    expect(displayPath(root, `${root}/src`, 'workspace:/src/a.ts')).toBe('a.ts');
    expect(displayPath(root, `${root}/src`, 'workspace:/README.md')).toBe('../README.md');
    expect(displayPath(root, root, 'data:/x')).toBe('data:/x');
  });
});
