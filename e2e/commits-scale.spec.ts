// The Commits view over 5,000 noted commits (issue 40 "Scale"): the first render is timed and
// printed, not asserted (timings belong to docs/performance.md); what it shows is asserted.
import { execFileSync } from 'node:child_process';
import { formatNote, NOTES_REF } from '../server/provenance/note';
import { expect, test } from './fixtures';

const COMMITS = 5_000;

/** One fast-import stream: COMMITS commits on main, each changing one file, each with a one-turn note. */
function history(): string {
  const out: string[] = [];
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  for (let i = 1; i <= COMMITS; i++) {
    const file = `line ${i}\n`;
    out.push(
      'commit refs/heads/main',
      `mark :${i}`,
      `committer Ada <ada@example.com> ${1_780_000_000 + i} +0000`,
      data(`Commit ${i}`).trimEnd(),
      ...(i > 1 ? [`from :${i - 1}`] : []),
      `M 100644 inline src/file-${i % 200}.txt`,
      data(file).trimEnd(),
    );
  }
  out.push(
    'commit ' + NOTES_REF,
    `committer Ada <ada@example.com> ${1_780_000_000 + COMMITS} +0000`,
    data('notes').trimEnd(),
  );
  for (let i = 1; i <= COMMITS; i++) {
    const note = formatNote({
      turnback: 1,
      turns: [
        {
          id: `turn-${i}`,
          host: i % 2 ? 'claude-code' : 'codex',
          session: `sess-${i % 17}`,
          at: new Date((1_780_000_000 + i) * 1000).toISOString(),
          title: `Turn ${i} of machine 1`,
          files: { [`src/file-${i % 200}.txt`]: '1' },
          lines: 1,
          record: `sha256:${'cd'.repeat(32)}`,
        },
      ],
    });
    out.push(`N inline :${i}`, data(note).trimEnd());
  }
  return out.join('\n') + '\n';
}

test('the Commits view over 5,000 noted commits: first render timed, one page of 50 fetched', async ({
  page,
  turnback,
}) => {
  const ws = turnback.workspace;
  const run = (args: string[], input?: string) =>
    execFileSync('git', args, { cwd: ws, input, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } });
  run(['init', '-q', '-b', 'main']);
  run(['fast-import', '--quiet'], history());
  run(['checkout', '-q', '-f', 'main']);
  expect(run(['rev-list', '--count', 'main']).toString().trim()).toBe(String(COMMITS));

  const requests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/commits?')) requests.push(new URL(request.url()).search);
  });
  await turnback.open(page);
  const figures: { firstRow: number; fiftyRows: number; route: number }[] = [];
  // The first click comes right after the console opens (the service still starting its work), the
  // others after a reload (a fresh page, the service warm).
  for (let attempt = 0; attempt < 3; attempt++) {
    if (attempt > 0) {
      await page.reload();
      await expect(page.getByRole('button', { name: 'Commits', exact: true })).toBeVisible();
    }
    // Timed in the page, from the click to the rows in the DOM, so Playwright's round trips stay out.
    const figure = await page.evaluate(
      () =>
        new Promise<{ firstRow: number; fiftyRows: number; route: number }>((resolve) => {
          const button = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Commits')!;
          performance.clearResourceTimings();
          const start = performance.now();
          let firstRow = -1;
          const observer = new MutationObserver(() => {
            const rows = document.querySelectorAll('.commit-row').length;
            if (rows > 0 && firstRow < 0) firstRow = performance.now() - start;
            if (rows < 50) return;
            observer.disconnect();
            const route = performance.getEntriesByType('resource').find((entry) => entry.name.includes('/commits?'));
            resolve({ firstRow, fiftyRows: performance.now() - start, route: route?.duration ?? -1 });
          });
          observer.observe(document.body, { childList: true, subtree: true });
          button.click();
        }),
    );
    figures.push(figure);
  }
  const dialog = page.getByRole('dialog', { name: 'Commits' });
  await expect(dialog.locator('.commit-row')).toHaveCount(50);
  await expect(dialog.locator('.commit-row').first()).toContainText(`Commit ${COMMITS}`);
  await expect(dialog.locator('.commit-row').first()).toContainText('another machine · read-only');
  await expect(dialog.getByRole('button', { name: 'More commits' })).toBeVisible();
  expect(requests.every((search) => search === '?limit=50')).toBe(true);
  const ms = (n: number) => `${Math.round(n)} ms`;
  for (const f of figures)
    console.log(
      `commits view, ${COMMITS} commits: click to first row ${ms(f.firstRow)}, to 50 rows ${ms(f.fiftyRows)}; GET /api/commits?limit=50 ${ms(f.route)}`,
    );
});
