import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { REPO } from '../support/fixture-project.js';

/**
 * The installed package explains itself: every relative link of the README and of the docs it
 * ships leads to a file the package holds, so nothing a user follows from node_modules is dead.
 */
test('every relative link in the shipped README and docs leads to a shipped file', () => {
  const listing = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO, encoding: 'utf8' }),
  ) as { files: { path: string }[] }[];
  const shipped = new Set(listing[0]?.files.map((file) => file.path));
  const pages = [...shipped].filter((file) => file.endsWith('.md'));
  expect(pages).toContain('README.md');
  expect(pages.filter((page) => page.startsWith('docs/')).length).toBeGreaterThan(20);
  const dead: string[] = [];
  for (const page of pages) {
    const text = readFileSync(path.join(REPO, page), 'utf8');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (!target || /^[a-z]+:/i.test(target) || target.startsWith('#')) continue;
      const file = path.posix
        .normalize(path.posix.join(path.posix.dirname(page), target.split('#')[0] as string))
        .replace(/\/$/, '');
      const found =
        shipped.has(file) || [...shipped].some((shippedFile) => shippedFile.startsWith(`${file}/`));
      if (!found) dead.push(`${page} → ${target}`);
    }
  }
  expect(dead).toEqual([]);
});
