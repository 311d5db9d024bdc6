/**
 * XML Schema's regular expressions (XML Schema 1.0, Appendix F), for
 * samples: parsed once, then a text of a wanted length that the expression
 * matches is made, and a text is matched. The expression is the whole value
 * (no anchors: `^` and `$` are characters), with XML Schema's classes (`\i`,
 * `\c`, `\w`, Unicode categories and blocks, subtraction `[a-z-[aeiou]]`).
 * A library (randexp and its kin) takes JavaScript's syntax, picks at random
 * and knows no length facet; samples are generated code, so they are made
 * here, the same on every run.
 */

/** A set of characters: membership, and the characters tried first when one is picked. */
interface CharSet {
  has(codePoint: number): boolean;
  firsts: number[];
  /** The one character of a set written as one (`a`, `\-`), which may start or end a range. */
  single?: number;
}

export type RegexNode =
  | { kind: 'chars'; set: CharSet }
  | { kind: 'sequence'; items: RegexNode[] }
  | { kind: 'alternatives'; options: RegexNode[] }
  | { kind: 'repeat'; node: RegexNode; min: number; max: number };

const cp = (c: string) => c.codePointAt(0)!;
const unicode = (property: string) => {
  const re = new RegExp(`^\\p{${property}}$`, 'u');
  return (c: number) => re.test(String.fromCodePoint(c));
};
const letter = unicode('L');
const digit = unicode('Nd');
const mark = (c: number) => /^[\p{Mn}\p{Mc}\p{Me}]$/u.test(String.fromCodePoint(c));
const notWord = (c: number) => /^[\p{P}\p{Z}\p{C}]$/u.test(String.fromCodePoint(c));
/** XML's name characters, as far as samples need them (the characters tried are ASCII or common letters). */
const nameStart = (c: number) => letter(c) || c === cp('_') || c === cp(':');
const nameChar = (c: number) => nameStart(c) || digit(c) || mark(c) || c === cp('-') || c === cp('.') || c === 0xb7;

/** Unicode blocks by XML Schema's names (`\p{IsBasicLatin}`): the ones contracts use. */
const BLOCKS: Record<string, [number, number]> = {
  BasicLatin: [0x0000, 0x007f],
  'Latin-1Supplement': [0x0080, 0x00ff],
  'LatinExtended-A': [0x0100, 0x017f],
  'LatinExtended-B': [0x0180, 0x024f],
  IPAExtensions: [0x0250, 0x02af],
  Greek: [0x0370, 0x03ff],
  GreekandCoptic: [0x0370, 0x03ff],
  Cyrillic: [0x0400, 0x04ff],
  Armenian: [0x0530, 0x058f],
  Hebrew: [0x0590, 0x05ff],
  Arabic: [0x0600, 0x06ff],
  Devanagari: [0x0900, 0x097f],
  Thai: [0x0e00, 0x0e7f],
  LatinExtendedAdditional: [0x1e00, 0x1eff],
  GreekExtended: [0x1f00, 0x1fff],
  GeneralPunctuation: [0x2000, 0x206f],
  CurrencySymbols: [0x20a0, 0x20cf],
  LetterlikeSymbols: [0x2100, 0x214f],
  NumberForms: [0x2150, 0x218f],
  Arrows: [0x2190, 0x21ff],
  MathematicalOperators: [0x2200, 0x22ff],
  Hiragana: [0x3040, 0x309f],
  Katakana: [0x30a0, 0x30ff],
  CJKUnifiedIdeographs: [0x4e00, 0x9fff],
  HangulSyllables: [0xac00, 0xd7a3],
};

/** The characters a set tries after its own: letters, digits, then others, so that a sample reads plainly. */
const USUAL = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  ...'-_.:!#$%&*+/=?@^~,;\'"()[]{}<>|\\` ',
  ...'éßΩЯ€\u00a0\u3042\u4e00',
].map(cp);

const set = (has: (c: number) => boolean, firsts: number[] = []): CharSet => ({ has, firsts });
const negate = (s: CharSet): CharSet => set((c) => !s.has(c));

/** A set of one character, written as one (it may start or end a range). */
const single = (c: number): CharSet => ({ has: (x) => x === c, firsts: [c], single: c });

/** Parses a pattern; throws on syntax it does not know (the caller then has no sample from it). */
export function parseXsdRegex(pattern: string): RegexNode {
  return new PatternReader(pattern).read();
}

/** A pattern read from its start, by recursive descent: alternatives of branches of pieces (an atom, quantified). */
class PatternReader {
  private readonly chars: string[];
  private i = 0;

  constructor(private readonly pattern: string) {
    this.chars = [...pattern];
  }

  read(): RegexNode {
    const root = this.alternatives();
    if (this.i < this.chars.length) this.fail(`${this.peek()} unexpected`);
    return root;
  }

  private fail(what: string): never {
    throw new Error(`pattern ${this.pattern}: ${what} at ${this.i}`);
  }

  private peek(): string | undefined {
    return this.chars[this.i];
  }

  /** After `\p` or `\P`: a Unicode category (`{Lu}`) or block (`{IsBasicLatin}`), or its complement. */
  private category(negated: boolean): CharSet {
    if (this.chars[this.i] !== '{') this.fail('\\p without {');
    const end = this.chars.indexOf('}', this.i);
    if (end < 0) this.fail('\\p{ without }');
    const name = this.chars.slice(this.i + 1, end).join('');
    this.i = end + 1;
    let made: CharSet;
    if (name.startsWith('Is')) {
      const block = BLOCKS[name.slice(2)];
      if (!block) this.fail(`unknown block ${name}`);
      made = set((c) => c >= block[0] && c <= block[1], [block[0] === 0 ? cp('a') : block[0]]);
    } else {
      if (!/^[LMNPZSC][a-z]?$/.test(name)) this.fail(`unknown category ${name}`);
      made = set(unicode(name));
    }
    return negated ? negate(made) : made;
  }

  /** After a backslash: a character class escape, or a single character. */
  private classEscape(): CharSet {
    const c = this.chars[this.i++];
    switch (c) {
      case 'd':
        return set(digit, [cp('0')]);
      case 'D':
        return set((x) => !digit(x));
      case 's':
        return set((x) => x === 0x20 || x === 0x9 || x === 0xa || x === 0xd, [0x20]);
      case 'S':
        return set((x) => !(x === 0x20 || x === 0x9 || x === 0xa || x === 0xd));
      case 'i':
        return set(nameStart);
      case 'I':
        return set((x) => !nameStart(x));
      case 'c':
        return set(nameChar);
      case 'C':
        return set((x) => !nameChar(x));
      case 'w':
        return set((x) => !notWord(x));
      case 'W':
        return set(notWord);
      case 'p':
        return this.category(false);
      case 'P':
        return this.category(true);
      case 'n':
        return single(0xa);
      case 'r':
        return single(0xd);
      case 't':
        return single(0x9);
      case undefined:
        return this.fail('a pattern ending in \\');
      default:
        // XML Schema escapes \|.-^?*+{}()[]; libxml2 takes any other sign escaped as itself (`\$`), so this does.
        if (/[\p{L}\p{N}]/u.test(c)) this.fail(`unknown escape \\${c}`);
        return single(cp(c));
    }
  }

  /** A character class expression, after its `[`: members, a range, escapes, negation, subtraction. */
  private classExpression(): CharSet {
    const negated = this.peek() === '^';
    if (negated) this.i++;
    const members: CharSet[] = [];
    let subtracted: CharSet | undefined;
    while (this.i < this.chars.length && this.peek() !== ']') {
      if (this.peek() === '-' && this.chars[this.i + 1] === '[') {
        this.i += 2;
        subtracted = this.classExpression();
        break;
      }
      members.push(this.classMember());
    }
    if (members.length === 0 && subtracted === undefined) this.fail('an empty class');
    if (this.peek() !== ']') this.fail('a class without ]');
    this.i++;
    const union = set(
      (x) => members.some((m) => m.has(x)),
      members.flatMap((m) => m.firsts),
    );
    const positive = negated ? negate(union) : union;
    if (!subtracted) return positive;
    const minus = subtracted;
    return set((x) => positive.has(x) && !minus.has(x), positive.firsts);
  }

  /** One member of a class: a character, a range of them (`a-z`, `\--/`), or a class escape (`\d`). */
  private classMember(): CharSet {
    let from: number;
    if (this.peek() === '\\') {
      this.i++;
      const escaped = this.classEscape();
      if (escaped.single === undefined) return escaped;
      from = escaped.single;
    } else if (this.peek() === '[') this.fail('[ inside a class');
    else from = cp(this.chars[this.i++]);
    const next = this.chars[this.i + 1];
    if (this.peek() !== '-' || next === ']' || next === '[' || next === undefined) return single(from);
    this.i++;
    let to: number;
    if (this.peek() === '\\') {
      this.i++;
      const escaped = this.classEscape();
      if (escaped.single === undefined) this.fail('a range ending in a class escape');
      to = escaped.single;
    } else to = cp(this.chars[this.i++]);
    if (to < from) this.fail('a range that ends before it starts');
    return set((x) => x >= from && x <= to, [from]);
  }

  private atom(): RegexNode {
    const c = this.peek();
    if (c === '(') {
      this.i++;
      // XML Schema has no (?:…); a (? is refused rather than read as something else.
      if (this.peek() === '?') this.fail('(? is not XML Schema');
      const inner = this.alternatives();
      if (this.peek() !== ')') this.fail('( without )');
      this.i++;
      return inner;
    }
    this.i++;
    if (c === '[') return { kind: 'chars', set: this.classExpression() };
    if (c === '\\') return { kind: 'chars', set: this.classEscape() };
    if (c === '.') return { kind: 'chars', set: set((x) => x !== 0xa && x !== 0xd) };
    if (c === undefined || '?*+{}|)]'.includes(c)) this.fail(`${c} where a character is expected`);
    return { kind: 'chars', set: single(cp(c)) };
  }

  private piece(): RegexNode {
    const node = this.atom();
    const q = this.peek();
    const unbounded = Number.POSITIVE_INFINITY;
    const short: Record<string, [number, number]> = { '?': [0, 1], '*': [0, unbounded], '+': [1, unbounded] };
    if (q !== undefined && q in short) {
      this.i++;
      return { kind: 'repeat', node, min: short[q][0], max: short[q][1] };
    }
    if (q === '{') {
      const end = this.chars.indexOf('}', this.i);
      const quantity = /^(\d+)(,(\d*))?$/.exec(this.chars.slice(this.i + 1, end).join(''));
      if (end < 0 || !quantity) this.fail('a quantity that is no {n}, {n,} or {n,m}');
      this.i = end + 1;
      const min = Number(quantity[1]);
      const max = quantity[2] === undefined ? min : quantity[3] === '' ? Number.POSITIVE_INFINITY : Number(quantity[3]);
      if (max < min) this.fail('a quantity whose maximum is below its minimum');
      return { kind: 'repeat', node, min, max };
    }
    return node;
  }

  private branch(): RegexNode {
    const items: RegexNode[] = [];
    while (this.i < this.chars.length && this.peek() !== '|' && this.peek() !== ')') items.push(this.piece());
    return { kind: 'sequence', items };
  }

  private alternatives(): RegexNode {
    const options = [this.branch()];
    while (this.peek() === '|') {
      this.i++;
      options.push(this.branch());
    }
    return options.length === 1 ? options[0] : { kind: 'alternatives', options };
  }
}

/** The character a set gives a sample: its own first members, then usual ones, then any it has. */
function pick(s: CharSet): number | undefined {
  for (const c of [...s.firsts, ...USUAL]) if (s.has(c)) return c;
  for (let c = 0x20; c < 0xd800; c++) if (s.has(c)) return c;
  return undefined;
}

/** Whether the pattern matches the whole text. */
export function matchesXsdRegex(node: RegexNode, text: string): boolean {
  const input = [...text].map(cp);
  const step = (n: RegexNode, from: Set<number>): Set<number> => {
    switch (n.kind) {
      case 'chars':
        return new Set([...from].filter((p) => p < input.length && n.set.has(input[p])).map((p) => p + 1));
      case 'sequence':
        return n.items.reduce((at, item) => step(item, at), from);
      case 'alternatives':
        return new Set(n.options.flatMap((o) => [...step(o, from)]));
      case 'repeat': {
        const ends = new Set<number>(n.min === 0 ? from : []);
        let at = from;
        for (let k = 1; k <= n.max && at.size > 0; k++) {
          const next = step(n.node, at);
          if (k >= n.min) {
            const before = ends.size;
            for (const p of next) ends.add(p);
            // Past the minimum, a round that reaches no new end reaches none later.
            if (ends.size === before && k > n.min) break;
          }
          at = next;
          if (k > input.length + n.min) break;
        }
        return ends;
      }
    }
  };
  return step(node, new Set([0])).has(input.length);
}

/**
 * A text the pattern matches whose length is within [min, max] (the shortest such), made of each class's
 * first member; undefined when there is none.
 */
export function generateXsdRegex(node: RegexNode, min = 0, max = Number.POSITIVE_INFINITY): string | undefined {
  const least = shortest(node);
  if (least === Number.POSITIVE_INFINITY) return undefined;
  const cap = Math.min(max, Math.max(min, least) + 64);
  if (cap < min) return undefined;
  const lengths = new Map<RegexNode, boolean[]>();
  const none = () => new Array<boolean>(cap + 1).fill(false);
  const sum = (a: boolean[], b: boolean[]) => {
    const out = none();
    const ys = b.flatMap((yes, y) => (yes ? [y] : []));
    for (let x = 0; x <= cap; x++) if (a[x]) for (const y of ys) if (x + y <= cap) out[x + y] = true;
    return out;
  };
  const union = (a: boolean[], b: boolean[]) => a.map((yes, x) => yes || b[x]);
  /** The lengths of the texts a node matches, up to the cap. */
  const lengthsOf = (n: RegexNode): boolean[] => {
    const known = lengths.get(n);
    if (known) return known;
    let out = none();
    switch (n.kind) {
      case 'chars':
        if (cap >= 1 && pick(n.set) !== undefined) out[1] = true;
        break;
      case 'sequence':
        out[0] = true;
        for (const item of n.items) out = sum(out, lengthsOf(item));
        break;
      case 'alternatives':
        for (const o of n.options) out = union(out, lengthsOf(o));
        break;
      case 'repeat':
        for (const [k, reach] of rounds(n).entries()) if (k >= n.min) out = union(out, reach);
        break;
    }
    lengths.set(n, out);
    return out;
  };
  /** The lengths k repetitions reach, for k from 0 until more reach nothing new (or the maximum). */
  const roundsOf = new Map<RegexNode, boolean[][]>();
  const rounds = (n: Extract<RegexNode, { kind: 'repeat' }>): boolean[][] => {
    const known = roundsOf.get(n);
    if (known) return known;
    const one = lengthsOf(n.node);
    const start = none();
    start[0] = true;
    const out = [start];
    const seen = new Set<string>();
    for (let k = 1; k <= n.max && k <= cap + n.min + 1; k++) {
      const next = sum(out[k - 1], one);
      out.push(next);
      const key = next.join();
      if (k > n.min && seen.has(key)) break;
      seen.add(key);
    }
    roundsOf.set(n, out);
    return out;
  };
  const make = (n: RegexNode, length: number): string => {
    switch (n.kind) {
      case 'chars':
        return String.fromCodePoint(pick(n.set)!);
      case 'sequence': {
        // The lengths each suffix of the items reaches, then each item takes the shortest that leaves a reachable rest.
        const suffix: boolean[][] = new Array(n.items.length + 1);
        suffix[n.items.length] = none();
        suffix[n.items.length][0] = true;
        for (let k = n.items.length - 1; k >= 0; k--) suffix[k] = sum(lengthsOf(n.items[k]), suffix[k + 1]);
        let rest = length;
        let out = '';
        for (const [k, item] of n.items.entries()) {
          const own = lengthsOf(item);
          const take = own.findIndex((yes, x) => yes && x <= rest && suffix[k + 1][rest - x]);
          out += make(item, take);
          rest -= take;
        }
        return out;
      }
      case 'alternatives':
        return make(n.options.find((o) => lengthsOf(o)[length])!, length);
      case 'repeat': {
        const reach = rounds(n);
        const count = reach.findIndex((r, k) => k >= n.min && r[length]);
        const one = lengthsOf(n.node);
        const parts: string[] = [];
        let rest = length;
        for (let k = count; k >= 1; k--) {
          const take = one.findIndex((yes, x) => yes && x <= rest && reach[k - 1][rest - x]);
          parts.push(make(n.node, take));
          rest -= take;
        }
        return parts.join('');
      }
    }
  };
  const all = lengthsOf(node);
  const length = all.findIndex((yes, x) => yes && x >= min && x <= max);
  return length < 0 ? undefined : make(node, length);
}

/** The length of the shortest text a node matches (Infinity when it matches none). */
function shortest(n: RegexNode): number {
  switch (n.kind) {
    case 'chars':
      return pick(n.set) === undefined ? Number.POSITIVE_INFINITY : 1;
    case 'sequence':
      return n.items.reduce((total, item) => total + shortest(item), 0);
    case 'alternatives':
      return Math.min(...n.options.map(shortest));
    case 'repeat':
      return n.min === 0 ? 0 : n.min * shortest(n.node);
  }
}
