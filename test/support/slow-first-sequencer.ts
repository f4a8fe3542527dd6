import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest (each over 15 s as `npm run test:times` measures them), started
 * first: with two workers the run ends when its longest file does, so a long file started last
 * stretches the run. Vitest orders by the durations it cached, which a clean checkout (CI) has
 * none of; there it orders by file size, and started the two property files last.
 */
const SLOWEST = [
  'test/coerce/properties.test.ts',
  'test/prepare/properties.test.ts',
  'test/cli/generate.test.ts',
  'test/surfaces/conformance.test.ts',
  'test/prepare/profile-properties.test.ts',
  'test/generate/explain-properties.test.ts',
  'test/coerce/repairs.test.ts',
  'test/cli/check-diff.test.ts',
  'test/surfaces/first-answers.test.ts',
];

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = SLOWEST.indexOf(
        path.relative(file.project.config.root, file.moduleId).split(path.sep).join('/'),
      );
      return at === -1 ? SLOWEST.length : at;
    };
    // A stable sort: the rest keep vitest's own order.
    return sorted
      .map((file, index) => ({ file, index }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.index - b.index)
      .map(({ file }) => file);
  }
}
