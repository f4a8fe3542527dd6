// The per-call benchmarks' input and arguments, and their timer: plain JavaScript with no Node
// import, so that a Worker bundle (section 3e, workerd) runs the same cases as the Node sections.

/** The per-call benchmark's 8-field input, written with a Zod namespace (4, 3.23 or zod/v3). */
export function zodSearchInput(z) {
  return z.object({
    query: z.string().min(1),
    paths: z.union([z.string(), z.array(z.string())]),
    limit: z.number().int().max(100).default(20),
    mode: z.enum(['fast', 'exact']),
    filters: z.object({
      tags: z.array(z.string()),
      since: z.string().optional(),
      owner: z.object({ id: z.string(), team: z.string() }),
    }),
    rows: z.array(z.object({ key: z.string(), value: z.union([z.string(), z.number()]) })),
    target: z.discriminatedUnion('type', [
      z.object({ type: z.literal('file'), path: z.string() }),
      z.object({ type: z.literal('url'), href: z.string() }),
    ]),
    weights: z.record(z.string(), z.number()),
  });
}

/** Arguments a model typically sends to the search input. */
export const TYPICAL_SEARCH_ARGS = {
  query: 'release notes',
  paths: ['docs/a.md', 'docs/b.md'],
  mode: 'fast',
  filters: { tags: ['a', 'b'], owner: { id: 'u1', team: 't1' } },
  rows: [
    { key: 'a', value: 1 },
    { key: 'b', value: 'x' },
  ],
  target: { type: 'file', path: 'x.md' },
  weights: { a: 1, b: 2 },
};

/** The repairs' input (sections 3c and 3e): its record with enum keys, which every profile can show. */
export const repairsInput = (z) =>
  zodSearchInput(z).extend({ weights: z.partialRecord(z.enum(['a', 'b', 'c']), z.number()) });

/** Each repair acting, and a strict profile's answer: `[label, arguments, inverse steps]`. */
export function repairCases(INVERSE_STEPS) {
  return [
    ['typical arguments: nothing to repair', TYPICAL_SEARCH_ARGS, []],
    [
      'scalarText: a number and a record value as text',
      { ...TYPICAL_SEARCH_ARGS, limit: '10', weights: { a: '1', b: 2 } },
      [],
    ],
    [
      'nullAbsent: null for two keys left out',
      { ...TYPICAL_SEARCH_ARGS, limit: null, filters: { ...TYPICAL_SEARCH_ARGS.filters, since: null } },
      [],
    ],
    [
      'loneValue: one tag for the list of tags',
      { ...TYPICAL_SEARCH_ARGS, filters: { ...TYPICAL_SEARCH_ARGS.filters, tags: 'a' } },
      [],
    ],
    ['caseFold: an enum in another case', { ...TYPICAL_SEARCH_ARGS, mode: 'Fast' }, []],
    [
      'openai-strict: null for every key left out',
      {
        ...TYPICAL_SEARCH_ARGS,
        limit: null,
        filters: { ...TYPICAL_SEARCH_ARGS.filters, since: null },
        target: { ...TYPICAL_SEARCH_ARGS.target, href: null },
        weights: { a: 1, b: 2, c: null },
      },
      INVERSE_STEPS['openai-strict'],
    ],
  ];
}

/** Runs `work` in batches and returns the per-operation milliseconds of each batch. */
export function perOperationTimes(work, { batches }) {
  // Warm up for 200 ms (the optimising compiler needs time, not a count), then size each batch to
  // take about 20 ms, so that a sub-microsecond operation is not measured against the timer.
  let calls = 0;
  const warmed = performance.now();
  while (performance.now() - warmed < 200) {
    for (let index = 0; index < 100; index++) work();
    calls += 100;
  }
  const iterations = Math.ceil(20 / ((performance.now() - warmed) / calls));
  const times = [];
  for (let batch = 0; batch < batches; batch++) {
    const started = performance.now();
    for (let index = 0; index < iterations; index++) work();
    times.push((performance.now() - started) / iterations);
  }
  return times;
}
