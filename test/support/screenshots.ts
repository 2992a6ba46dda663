import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Screenshots are for a person to look at, so a browser test takes them only when asked:
 * `SCREENSHOTS=/tmp/shots npx vitest run test/e2e/...` writes each as <SCREENSHOTS>/<test file>/<name>.png. CI does
 * not ask (a full-page PNG of a long page costs CPU that every run would pay for nobody).
 */
export const SCREENSHOTS = process.env.SCREENSHOTS;

export async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  const dir = join(SCREENSHOTS, basename(expect.getState().testPath ?? 'browser', '.test.ts'));
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}
