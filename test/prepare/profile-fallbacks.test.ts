import { prepareTool } from '@toolprep/build';
import { defineTool } from 'toolprep';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { resolveOptions } from '../../src/config/options.js';
import { PROFILE_NAMES } from '../../src/manifest/profiles.js';
import type { Problem } from '../../src/shared/build/problems.js';
import { copyFixture, type FixtureProject } from '../support/fixture-project.js';

/**
 * A profile per tool (issue 25, item 1): a tool a strict profile cannot express is an error that
 * names the line declaring its fallback; declared (in the contract or the config) or with
 * `fallback: 'auto'`, it is sent as the fallback, and the manifest, the summary and inspect say so.
 */

const freeKeys = defineTool({
  description: 'Tag a note.',
  input: z.object({ path: z.string(), properties: z.record(z.string(), z.string()) }),
});

const prepared = (options: Parameters<typeof prepareTool>[1]) => {
  const warnings: Problem[] = [];
  const tool = prepareTool(freeKeys, { exportName: 'tagNote', ...options, warn: (w) => warnings.push(w) });
  return { tool, warnings };
};

describe('one tool, per profile', () => {
  test('by default, a tool the profile cannot express is an error whose hint names both declarations', () => {
    expect(() => prepareTool(freeKeys, { exportName: 'tagNote', profiles: ['anthropic-strict'] })).toThrow(
      `[toolprep] tool "tag_note", input.properties, profile anthropic-strict: a record with free keys cannot be expressed under anthropic-strict (the object must be closed) (give it fixed keys (z.object) or enum keys (z.record(z.enum([...]), ...)), or leave this profile out; or send this tool as anthropic (not strict): profiles: { 'anthropic-strict': 'fallback' } in its defineTool(), or profileOptions: { 'anthropic-strict': { tools: { 'tag_note': 'fallback' } } } in the config)`,
    );
  });

  test.each([
    ['openai-strict', 'openai'],
    ['anthropic-strict', 'anthropic'],
    ['gemini-openapi', 'gemini'],
  ] as const)(
    'fallback: auto sends it as the fallback of %s (%s), with a warning naming the field',
    (profile, fallback) => {
      const { tool, warnings } = prepared({
        profiles: [profile],
        profileOptions: { [profile]: { fallback: 'auto' } },
      });
      const entry = tool.profiles?.[profile];
      expect(entry?.fallback).toBe(fallback);
      expect(entry?.reason).toBe(
        `input.properties: a record with free keys cannot be expressed under ${profile} (the object must be closed)`,
      );
      expect(entry?.strictBudget).toBeUndefined();
      // The fallback keeps the record as it is: the model is shown the free keys.
      expect(
        ((entry?.inputSchema.properties ?? {}) as Record<string, { additionalProperties?: unknown }>)
          .properties?.additionalProperties,
      ).toEqual({ type: 'string' });
      expect(warnings).toMatchObject([
        {
          severity: 'warning',
          code: 'profile-fallback',
          tool: 'tag_note',
          field: 'input.properties',
          profile,
        },
      ]);
      expect(warnings[0]?.message).toBe(
        `sent as ${fallback} (not strict), since input.properties: a record with free keys cannot be expressed under ${profile} (the object must be closed)`,
      );
    },
  );

  test('declared in the contract, or in the config by name or pattern (the config wins): no warning, the line recorded', () => {
    const declared = defineTool({
      ...freeKeys,
      profiles: { 'openai-strict': 'fallback', gemini: 'exclude' },
    });
    const warnings: Problem[] = [];
    const tool = prepareTool(declared, {
      exportName: 'tagNote',
      profiles: ['openai-strict', 'gemini', 'gemini-openapi', 'anthropic-strict'],
      profileOptions: {
        'gemini-openapi': { tools: { 'tag_*': 'fallback' } },
        'anthropic-strict': { tools: { tag_note: 'exclude' } },
      },
      warn: (warning) => warnings.push(warning),
    });
    expect(warnings).toEqual([]);
    expect(tool.profiles?.['openai-strict']?.reason).toBe(
      "declared by the contract's profiles['openai-strict']; input.properties: a record with free keys cannot be expressed under openai-strict (the object must be closed)",
    );
    expect(tool.profiles?.['gemini-openapi']?.reason).toMatch(
      /^declared by the config's profileOptions\['gemini-openapi'\]\.tools\['tag_\*'\]; /,
    );
    expect(tool.excludedFrom).toEqual({
      gemini: "excluded by the contract's profiles['gemini']",
      'anthropic-strict': "excluded by the config's profileOptions['anthropic-strict'].tools['tag_note']",
    });
    expect(Object.keys(tool.profiles ?? {})).toEqual(['openai-strict', 'gemini-openapi']);
  });

  test('a tool the profile can express, declared to fall back, is sent as the fallback all the same', () => {
    const plain = defineTool({
      description: 'Plain.',
      input: z.object({ q: z.string() }),
      profiles: { 'anthropic-strict': 'fallback' },
    });
    const tool = prepareTool(plain, { exportName: 'plain', profiles: ['anthropic-strict'] });
    expect(tool.profiles?.['anthropic-strict']).toEqual({
      inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
      fallback: 'anthropic',
      reason: "declared by the contract's profiles['anthropic-strict']",
    });
  });

  test.each([
    [{ gemini: 'fallback' }, "profiles['gemini']", 'must be \'exclude\', not "fallback"'],
    [{ 'openai-lax': 'exclude' }, "profiles['openai-lax']", 'is not a profile'],
    [
      { 'openai-strict': 'skip' },
      "profiles['openai-strict']",
      "must be 'exclude' or 'fallback', not \"skip\"",
    ],
  ])('a contract choice that is none is a problem naming the field: %j', (choices, field, message) => {
    const contract = defineTool({ ...freeKeys, profiles: choices as never });
    expect(() => prepareTool(contract, { exportName: 'tagNote', profiles: ['gemini'] })).toThrow(
      `tool "tag_note", ${field}: ${message}`,
    );
  });

  test('options for a profile the config does not choose are refused', async () => {
    await expect(
      resolveOptions({ profiles: ['gemini'], profileOptions: { 'openai-strict': { fallback: 'auto' } } }),
    ).rejects.toThrow(
      'option "profileOptions.openai-strict": is for a profile that profiles does not choose (gemini)',
    );
  });
});

describe('the notes fixture, under all five profiles with declared fallbacks', () => {
  let project: FixtureProject;
  beforeAll(() => {
    project = copyFixture('profile-fallbacks');
  });
  afterAll(() => project.remove());

  test('builds; the manifest records each fallback, the summary counts them, inspect shows them', () => {
    const generated = project.cli('generate');
    expect(generated.stderr).toBe('');
    expect(generated.status).toBe(0);
    expect(generated.stdout).toMatch(
      /; 1 tool falls back from openai-strict: tag_note; 2 tools fall back from anthropic-strict: outline_note, tag_note; 2 tools fall back from gemini-openapi: outline_note, tag_note$/m,
    );
    const manifest = JSON.parse(project.read('toolprep.manifest.json'));
    const entries = Object.fromEntries(
      manifest.tools.map(
        (tool: { name: string; profiles: Record<string, { fallback?: string; reason?: string }> }) => [
          tool.name,
          Object.fromEntries(
            PROFILE_NAMES.map((profile) => [profile, tool.profiles[profile]?.fallback ?? profile]),
          ),
        ],
      ),
    );
    expect(entries).toEqual({
      outline_note: {
        'openai-strict': 'openai-strict',
        anthropic: 'anthropic',
        'anthropic-strict': 'anthropic',
        gemini: 'gemini',
        'gemini-openapi': 'gemini',
      },
      search_notes: Object.fromEntries(PROFILE_NAMES.map((profile) => [profile, profile])),
      tag_note: {
        'openai-strict': 'openai',
        anthropic: 'anthropic',
        'anthropic-strict': 'anthropic',
        gemini: 'gemini',
        'gemini-openapi': 'gemini',
      },
    });
    const outline = manifest.tools.find((tool: { name: string }) => tool.name === 'outline_note');
    expect(outline.profiles['anthropic-strict'].reason).toBe(
      "declared by the config's profileOptions['anthropic-strict'].tools['outline_*']; input.outline[]: a recursive schema cannot be expressed under anthropic-strict",
    );

    const listed = project.cli('inspect');
    expect(listed.status).toBe(0);
    expect(listed.stdout).toContain('  2 tools fall back from anthropic-strict: outline_note, tag_note\n');
    const one = project.cli('inspect', 'tag_note');
    expect(one.stdout).toContain(
      "  as openai-strict → sent as openai, not strict: declared by the contract's profiles['openai-strict']; input.properties: a record with free keys cannot be expressed under openai-strict (the object must be closed)\n",
    );
  });
});
