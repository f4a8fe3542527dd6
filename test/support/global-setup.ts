// The CLI and bundler tests run the built package (dist/), as a user's project does, while the
// unit tests import src/: build first whenever dist/ was not built from these very sources, so
// that `npx vitest` can never test a stale build.
// @ts-expect-error: a plain ES module script, without type declarations.
import { ensureBuilt } from '../../scripts/build.mjs';

export default async function setup(): Promise<void> {
  if (await ensureBuilt()) process.stderr.write('[toolprep] dist/ was stale: rebuilt it before testing\n');
}
