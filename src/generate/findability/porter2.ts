/**
 * The Snowball English (Porter2) stemmer, as the Rust crate `rust-stemmers` runs it under Codex's
 * `tool_search` (through the `bm25` crate's default tokenizer). Written from the algorithm's
 * definition (snowballstem.org, "The English (Porter2) stemming algorithm"); the test checks it
 * against the published vocabulary samples.
 */

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u', 'y']);
const DOUBLES = ['bb', 'dd', 'ff', 'gg', 'mm', 'nn', 'pp', 'rr', 'tt'];
const LI_ENDINGS = new Set(['c', 'd', 'e', 'g', 'h', 'k', 'm', 'n', 'r', 't']);

const EXCEPTIONS: Record<string, string> = {
  skis: 'ski',
  skies: 'sky',
  dying: 'die',
  lying: 'lie',
  tying: 'tie',
  idly: 'idl',
  gently: 'gentl',
  ugly: 'ugli',
  early: 'earli',
  only: 'onli',
  singly: 'singl',
  sky: 'sky',
  news: 'news',
  howe: 'howe',
  atlas: 'atlas',
  cosmos: 'cosmos',
  bias: 'bias',
  andes: 'andes',
};
const AFTER_STEP_1A = new Set([
  'inning',
  'outing',
  'canning',
  'herring',
  'earring',
  'proceed',
  'exceed',
  'succeed',
]);

const STEP_2: readonly [string, string][] = [
  ['ization', 'ize'],
  ['ational', 'ate'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['iveness', 'ive'],
  ['tional', 'tion'],
  ['biliti', 'ble'],
  ['lessli', 'less'],
  ['entli', 'ent'],
  ['ation', 'ate'],
  ['alism', 'al'],
  ['aliti', 'al'],
  ['ousli', 'ous'],
  ['iviti', 'ive'],
  ['fulli', 'ful'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['abli', 'able'],
  ['izer', 'ize'],
  ['ator', 'ate'],
  ['alli', 'al'],
  ['bli', 'ble'],
  ['ogi', 'og'],
  ['li', ''],
];
const STEP_3: readonly [string, string][] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['alize', 'al'],
  ['icate', 'ic'],
  ['iciti', 'ic'],
  ['ative', ''],
  ['ical', 'ic'],
  ['ness', ''],
  ['ful', ''],
];
const STEP_4 = [
  'ement',
  'ance',
  'ence',
  'able',
  'ible',
  'ment',
  'ant',
  'ent',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
  'ion',
  'al',
  'er',
  'ic',
];

const isVowel = (word: string, at: number) => VOWELS.has(word[at] as string);

/** Where the region after the first non-vowel that follows a vowel starts, from `from`. */
function regionAfter(word: string, from: number): number {
  for (let at = from + 1; at < word.length; at++)
    if (!isVowel(word, at) && isVowel(word, at - 1)) return at + 1;
  return word.length;
}

function endsInShortSyllable(word: string): boolean {
  const n = word.length;
  if (n === 2) return isVowel(word, 0) && !isVowel(word, 1);
  return (
    n >= 3 &&
    !isVowel(word, n - 3) &&
    isVowel(word, n - 2) &&
    !isVowel(word, n - 1) &&
    !'wxY'.includes(word[n - 1] as string)
  );
}

export function porter2(input: string): string {
  let word = input.startsWith("'") ? input.slice(1) : input;
  if (Object.hasOwn(EXCEPTIONS, word)) return EXCEPTIONS[word] as string;
  if (word.length <= 2) return word;
  if (word.startsWith('y')) word = `Y${word.slice(1)}`;
  word = word.replace(/([aeiouy])y/g, '$1Y');
  const prefix = /^(gener|commun|arsen)/.exec(word)?.[0];
  const r1 = prefix ? prefix.length : regionAfter(word, 0);
  const r2 = regionAfter(word, r1);
  const inR1 = (suffix: string) => word.length - suffix.length >= r1;
  const inR2 = (suffix: string) => word.length - suffix.length >= r2;
  const cut = (suffix: string, by = '') => {
    word = word.slice(0, word.length - suffix.length) + by;
  };
  const hasVowelBefore = (end: number) => [...word.slice(0, end)].some((_, at) => isVowel(word, at));

  // Step 0
  for (const suffix of ["'s'", "'s", "'"])
    if (word.endsWith(suffix)) {
      cut(suffix);
      break;
    }
  // Step 1a
  if (word.endsWith('sses')) cut('sses', 'ss');
  else if (word.endsWith('ied') || word.endsWith('ies')) cut('ies', word.length > 4 ? 'i' : 'ie');
  else if (word.endsWith('us') || word.endsWith('ss')) {
    // kept
  } else if (word.endsWith('s') && hasVowelBefore(word.length - 2)) cut('s');
  if (AFTER_STEP_1A.has(word)) return word;
  // Step 1b
  const long = ['eedly', 'ingly', 'edly', 'eed', 'ing', 'ed'].find((suffix) => word.endsWith(suffix));
  if (long === 'eed' || long === 'eedly') {
    if (inR1(long)) cut(long, 'ee');
  } else if (long && hasVowelBefore(word.length - long.length)) {
    cut(long);
    if (word.endsWith('at') || word.endsWith('bl') || word.endsWith('iz')) word += 'e';
    else if (DOUBLES.some((double) => word.endsWith(double))) word = word.slice(0, -1);
    else if (r1 >= word.length && endsInShortSyllable(word)) word += 'e';
  }
  // Step 1c
  if (word.length > 2 && /[yY]$/.test(word) && !isVowel(word, word.length - 2)) cut('y', 'i');
  // Step 2
  const two = STEP_2.find(([suffix]) => word.endsWith(suffix));
  if (two && inR1(two[0])) {
    const [suffix, by] = two;
    if (suffix === 'ogi') {
      if (word.endsWith('logi')) cut(suffix, by);
    } else if (suffix === 'li') {
      if (LI_ENDINGS.has(word[word.length - 3] as string)) cut(suffix);
    } else cut(suffix, by);
  }
  // Step 3
  const three = STEP_3.find(([suffix]) => word.endsWith(suffix));
  if (three && inR1(three[0]) && (three[0] !== 'ative' || inR2(three[0]))) cut(three[0], three[1]);
  // Step 4
  const four = STEP_4.find((suffix) => word.endsWith(suffix));
  if (four && inR2(four)) {
    if (four !== 'ion' || /[st]$/.test(word.slice(0, -3))) cut(four);
  }
  // Step 5
  if (word.endsWith('e') && (inR2('e') || (inR1('e') && !endsInShortSyllable(word.slice(0, -1))))) cut('e');
  else if (word.endsWith('ll') && inR2('l')) cut('l');
  return word.replace(/Y/g, 'y');
}
