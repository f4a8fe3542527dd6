import { accessSync, constants } from 'node:fs';
import { describe, test } from 'vitest';
import { REDIS_SERVER } from '../../scripts/local-servers.mjs';
import { CHROMIUM } from './chromium.js';
import { NGINX } from './nginx.js';

/**
 * The programs some tests need on this machine, and the one decision about a test that needs one
 * that is missing: outside CI it is skipped, saying so; under CI (`CI` set, as `.ci/run` runs) it
 * fails, saying what cannot run and how to install it, so that CI can never be green without the
 * Redis stores, the executor, the cluster or the browser. `TOOLPREP_TEST_WITHOUT=redis-server,nginx`
 * runs the tests as if those were not installed (to see either path without uninstalling them).
 */
export type Service = 'redis-server' | 'nginx' | 'chromium';

const SERVICES: Record<Service, { readonly installed: () => boolean; readonly tests: string }> = {
  'redis-server': {
    installed: () => executable(REDIS_SERVER),
    tests: 'the Redis task store, the Streams executor and the cluster tests',
  },
  nginx: {
    installed: () => NGINX !== undefined,
    tests: 'the load-balancer tests (three MCP nodes behind nginx, and the tasks cluster)',
  },
  chromium: {
    installed: () => executable(CHROMIUM),
    tests: 'the browser tests (the surface report, the official MCP clients in Chromium)',
  },
};

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const without = new Set((process.env.TOOLPREP_TEST_WITHOUT ?? '').split(',').map((name) => name.trim()));

/** Under CI: `CI` set to anything but empty, `0` or `false`. */
const underCi = !['', '0', 'false'].includes(process.env.CI ?? '');

/** Whether `service` can run here (and is not listed in `TOOLPREP_TEST_WITHOUT`). */
function installed(service: Service): boolean {
  return !without.has(service) && SERVICES[service].installed();
}

/** What is said of a missing service: which tests it stops, and how to install it. */
function missingMessage(service: Service): string {
  const outcome = underCi ? 'cannot run' : 'are skipped (under CI they fail)';
  return `[toolprep tests] ${service} is not installed: ${SERVICES[service].tests} ${outcome}; install it (apt-get install ${service})`;
}

export interface Needs {
  /** True when every service needed is installed: the tests run. */
  readonly present: boolean;
  /**
   * A `describe` for the tests that need the services: as it is when they are installed; else
   * skipped outside CI, and under CI one failing test that says what is missing.
   */
  describe(name: string, body: () => void): void;
}

const told = new Set<Service>();

/** The services a test file needs: whether they are here, and the `describe` its tests go under. */
export function needs(...services: Service[]): Needs {
  const missing = services.filter((service) => !installed(service));
  if (missing.length === 0) return { present: true, describe: (name, body) => describe(name, body) };
  const messages = missing.map(missingMessage);
  for (const [index, service] of missing.entries())
    if (!told.has(service)) {
      told.add(service);
      console.warn(messages[index]);
    }
  return {
    present: false,
    describe: underCi
      ? (name) =>
          describe(name, () => {
            test(`needs ${missing.join(' and ')}, which CI must have`, () => {
              throw new Error(messages.join('\n'));
            });
          })
      : (name, body) => describe.skip(name, body),
  };
}
