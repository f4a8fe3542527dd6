/** `npm run fuzz` sets FUZZ_RUNS=40000: every random case count, and its time limit, scales with it. */
const SCALE = Number(process.env.FUZZ_RUNS ?? 2000) / 2000;

/** A property's count of random cases: `base` in `npm test`, twenty times more in `npm run fuzz`. */
export const propertyRuns = (base: number): number => Math.ceil(base * SCALE);

/** A library that builds its types slowly (ArkType) needs minutes at the suite's own counts. */
export const PROPERTY_TIMEOUT = propertyRuns(600_000);
