import { existsSync } from 'node:fs';

/**
 * Headless Chromium for the browser tests: Debian's package, driven by playwright-core. Without it
 * (`apt-get install chromium`; `.ci/run` installs it) the tests that need it are skipped, and the
 * file says so once.
 */
export const CHROMIUM = '/usr/bin/chromium';

export function hasChromium(tests: string): boolean {
  const found = existsSync(CHROMIUM);
  if (!found) console.warn(`[toolprep] ${tests} are skipped: no ${CHROMIUM} (apt-get install chromium)`);
  return found;
}

export type Browser = import('playwright-core').Browser;

/** Chromium with the flags of this machine's closed network: no background connections, no sandbox as root. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
