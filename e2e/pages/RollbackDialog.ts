import { expect, type Locator, type Page } from '@playwright/test';

export class RollbackDialog {
  readonly root: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByRole('dialog');
  }

  group(name: string): Locator {
    return this.root.getByRole('region', { name });
  }

  get overwrite(): Locator {
    return this.root.getByRole('checkbox', { name: /Overwrite anyway/ });
  }

  async confirm(name: string | RegExp): Promise<void> {
    await this.root.getByRole('button', { name }).click();
    await expect(this.root.getByRole('button', { name: 'Close' })).toBeVisible();
  }

  async undo(): Promise<void> {
    await this.root.getByRole('button', { name: 'Redo' }).click();
    await expect(this.root.getByText(/^Redone/)).toBeVisible();
  }

  async close(): Promise<void> {
    await this.root.getByRole('button', { name: 'Close' }).click();
    await expect(this.root).toBeHidden();
  }
}
