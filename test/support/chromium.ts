/**
 * Headless Chromium for the browser tests: Debian's package, driven by playwright-core. Without it
 * (`apt-get install chromium`; `.ci/run` installs it) the tests that need it are skipped, or fail
 * under CI: `needs('chromium')` (test/support/services.ts) decides.
 */
export const CHROMIUM = '/usr/bin/chromium';

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
