// The console as a person sees it: sessions, the turn timeline, the turn detail and its diff.
import { expect, type Locator, type Page } from '@playwright/test';
import { RollbackDialog } from './RollbackDialog';

export class ConsolePage {
  readonly sessions: Locator;
  readonly timeline: Locator;
  readonly detail: Locator;
  readonly files: Locator;

  constructor(readonly page: Page) {
    this.sessions = page.getByRole('navigation', { name: 'Sessions' });
    this.timeline = page.getByRole('listbox', { name: 'Turns' });
    this.detail = page.getByRole('region', { name: 'Turn detail' });
    this.files = page.getByRole('list', { name: 'Changed files' });
  }

  session(sessionId: string): Locator {
    return this.sessions.getByRole('button', { name: new RegExp(`^Session ${sessionId},`) });
  }

  turn(number: number): Locator {
    return this.timeline.getByRole('option', { name: new RegExp(`^#${number} `) });
  }

  async selectTurn(number: number): Promise<void> {
    await this.turn(number).click();
    await expect(this.turn(number)).toHaveAttribute('aria-selected', 'true');
    await expect(this.detail.getByRole('heading', { level: 2 })).toBeVisible();
  }

  fileButton(path: string): Locator {
    return this.detail.getByRole('button', { name: `Show diff of ${path}` });
  }

  fileCheckbox(path: string): Locator {
    return this.detail.getByRole('checkbox', { name: `Select ${path} for restore` });
  }

  diff(path: string): Locator {
    return this.page.getByRole('region', { name: `Diff of ${path}` });
  }

  async showDiff(path: string): Promise<Locator> {
    await this.fileButton(path).click();
    const diff = this.diff(path);
    await expect(diff).toBeVisible();
    return diff;
  }

  tab(name: 'Files' | 'Chat' | 'Steps'): Locator {
    return this.detail.getByRole('tab', { name: new RegExp(`^${name} \\(`) });
  }

  /** The dialog open now (a step's undo, a pin, a compare). */
  dialog(): RollbackDialog {
    return new RollbackDialog(this.page);
  }

  async action(
    name: 'Undo turn' | 'Undo turn and its chat' | 'Rewind to here' | 'Redo' | 'Compare with…' | RegExp,
  ): Promise<RollbackDialog> {
    // Exact, since 'Undo turn' is also the start of 'Undo turn and its chat'.
    await this.detail
      .getByRole('toolbar', { name: 'Turn actions' })
      .getByRole('button', { name, exact: typeof name === 'string' })
      .click();
    const dialog = new RollbackDialog(this.page);
    await expect(dialog.root).toBeVisible();
    return dialog;
  }
}
