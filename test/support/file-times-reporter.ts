import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest files to list; `TEST_TIMES_TOP=0` lists every file. */
const TOP = Number(process.env.TEST_TIMES_TOP ?? 15);

const seconds = (milliseconds: number): string => `${(milliseconds / 1000).toFixed(1)} s`.padStart(9);

/**
 * Each test file's time as the suite pays it (`npm run test:times`). Vitest's figures each leave
 * something out: a test's excludes its file's `beforeAll` (a file that packs or installs there
 * shows tests of a few milliseconds), a file's excludes importing it and starting its worker.
 * `total` here is the worker's start, then everything from the file's collection to its end.
 */
export default class FileTimesReporter implements Reporter {
  readonly #collecting = new Map<string, number>();
  readonly #collectedToEnd = new Map<string, number>();

  // Sent by the worker when it starts collecting the file, after its environment is ready.
  onTestModuleQueued(testModule: TestModule): void {
    this.#collecting.set(testModule.moduleId, performance.now());
  }

  onTestModuleEnd(testModule: TestModule): void {
    const started = this.#collecting.get(testModule.moduleId);
    if (started !== undefined) this.#collectedToEnd.set(testModule.moduleId, performance.now() - started);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const rows = testModules.map((testModule) => {
      const diagnostic = testModule.diagnostic();
      const start = diagnostic.environmentSetupDuration + diagnostic.prepareDuration;
      const imports = diagnostic.collectDuration + diagnostic.setupDuration;
      const collectedToEnd = this.#collectedToEnd.get(testModule.moduleId) ?? imports + diagnostic.duration;
      const tests = [...testModule.children.allTests()];
      const slowestTest = Math.max(0, ...tests.map((test) => test.diagnostic()?.duration ?? 0));
      return {
        file: testModule.relativeModuleId,
        total: start + collectedToEnd,
        hooksAndTests: diagnostic.duration,
        imports,
        start,
        slowestTest,
      };
    });
    rows.sort((left, right) => right.total - left.total);
    const shown = TOP > 0 ? rows.slice(0, TOP) : rows;
    const header = ['total', 'tests', 'import', 'start', 'slowest'].map((name) => name.padStart(9)).join('');
    const lines = [
      '',
      `The slowest ${shown.length} of ${rows.length} test files. total: start, import and tests; tests: the tests with their hooks (beforeAll included); import: the file's imports and top-level code, and setup files; start: the worker's environment and runner; slowest: its slowest test alone.`,
      `${header}  file`,
      ...shown.map(
        (row) =>
          `${[row.total, row.hooksAndTests, row.imports, row.start, row.slowestTest].map(seconds).join('')}  ${row.file}`,
      ),
      `${seconds(rows.reduce((sum, row) => sum + row.total, 0))}  all files, summed (the workers run them side by side)`,
      '',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}
