/**
 * Sample values: a TypeScript expression building a value of a type, every
 * field filled with a placeholder valid for its schema type and facets (the
 * help pages' samples, and the mock's answers, validate against the schema):
 * a choice takes its first branch, an array holds one item, an abstract type
 * its first concrete derived type, and a type that holds itself stops where
 * it may (an optional member is left out once the type is already being
 * filled).
 */
import {
  type ComplexTypeModel,
  complexTypeOf,
  type ContractModel,
  type Facets,
  type FieldModel,
  type ParticleModel,
  type TypeRef,
} from '../model/model';
import { simpleParse } from './types';
import { valueCode } from './values';

export function sampleExpression(model: ContractModel, type: TypeRef, path: string[] = []): string {
  switch (type.kind) {
    case 'complex':
      return sampleObject(model, complexTypeOf(model, type), path);
    case 'any':
      return "''";
    case 'list':
      return `[${sampleExpression(model, type.item, path)}]`;
    case 'enum':
      return valueCode(type, model).sample;
    case 'primitive':
      return type.facets ? (facetSample(type.primitive, type.facets) ?? valueCode(type).sample) : valueCode(type).sample;
  }
}

export function sampleObject(model: ContractModel, declared: ComplexTypeModel, path: string[] = []): string {
  // An abstract type's sample is of a concrete derived type: the first that does not require the types being filled.
  const concrete = declared.derived.map((name) => model.types.find((t) => t.name === name)!).filter((t) => !t.abstract);
  const filling = [...path, declared.name];
  const holdsNone = (t: ComplexTypeModel) =>
    !t.fields.some(
      (f) => f.minOccurs > 0 && f.type.kind === 'complex' && (filling.includes(f.type.typeName) || f.type.typeName === t.name),
    );
  const type = declared.abstract ? (concrete.find(holdsNone) ?? concrete[0] ?? declared) : declared;
  const inside = [...filling, type.name];
  const chosen = chosenFields(type.particle, type);
  const fields = type.fields.flatMap((f) => {
    if (!chosen.has(f.name)) return [];
    // A type already being filled is left out there, and so is an optional member deep down; a required one that
    // would recur is an empty array when it repeats (a schema with no finite instance is rare).
    const recursive = f.type.kind === 'complex' && inside.includes(f.type.typeName);
    const repeats = f.maxOccurs === 'unbounded' || f.maxOccurs > 1;
    if (f.type.kind === 'complex' && f.minOccurs === 0 && (recursive || inside.length > 8)) return [];
    if (recursive) return repeats ? [`${f.name}: []`] : [];
    if (f.type.kind === 'any') return f.minOccurs > 0 ? [`${f.name}: ${anySample(model)}`] : [];
    const sample = f.fixed !== undefined ? fixedSample(model, f.type, f.fixed) : sampleExpression(model, f.type, inside);
    const repeated = f.maxOccurs === 'unbounded' || f.maxOccurs > 1;
    const count = Math.max(1, f.minOccurs);
    return [`${f.name}: ${repeated ? `[${Array(count).fill(sample).join(', ')}]` : sample}`];
  });
  const attributes = type.attributes.map(
    (a) => `${a.name}: ${a.fixed !== undefined ? fixedSample(model, a.type, a.fixed) : sampleExpression(model, a.type, inside)}`,
  );
  const text = type.text ? [`value: ${sampleExpression(model, type.text, inside)}`] : [];
  return `new ${type.name}({ ${[...text, ...fields, ...attributes].join(', ')} })`;
}

/**
 * XML a required wildcard holds in a sample: a global element of the contract that holds text (a strict
 * wildcard takes a declared element only), or else an element of a namespace of its own (a lax one takes it).
 */
function anySample(model: ContractModel): string {
  const text = model.elements.find((e) => e.type.kind === 'primitive' && ['string', 'text'].includes(e.type.primitive) && !e.type.facets);
  const escaped = (v: string) =>
    v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/\\/g, '\\\\').replace(/'/g, "\\'");
  return text
    ? `'<${escaped(text.name)} xmlns="${escaped(text.namespace)}">string</${escaped(text.name)}>'`
    : `'<sample xmlns="urn:example:any"/>'`;
}

/** A fixed value, read from its text as a value of its type. */
function fixedSample(model: ContractModel, type: TypeRef, fixed: string): string {
  const text = `'${fixed.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  return type.kind === 'complex' || type.kind === 'any' ? sampleExpression(model, type) : simpleParse(model, type, text);
}

/** The fields a sample fills: all of a sequence or an all, the first branch of a choice. */
function chosenFields(particle: ParticleModel, type: ComplexTypeModel, into = new Set<string>()): Set<string> {
  if (particle.kind === 'field') {
    into.add(particle.field);
    return into;
  }
  if (particle.kind === 'choice') {
    // The first branch that is not the type itself again (a recursive branch has no finite sample).
    const branch = particle.particles.find((p) => !(p.kind === 'field' && isSelf(type, p.field))) ?? particle.particles[0];
    if (branch) chosenFields(branch, type, into);
    return into;
  }
  for (const p of particle.particles) chosenFields(p, type, into);
  return into;
}

function isSelf(type: ComplexTypeModel, field: string): boolean {
  const f: FieldModel | undefined = type.fields.find((x) => x.name === field);
  return f?.type.kind === 'complex' && f.type.typeName === type.name;
}

/** A value of a built-in type that keeps to its facets; undefined when the type's usual sample does. */
function facetSample(primitive: string, facets: Facets): string | undefined {
  const numeric = ['int', 'short', 'byte', 'unsignedInt', 'unsignedShort', 'unsignedByte', 'float', 'double'].includes(primitive);
  const big = [
    'long',
    'unsignedLong',
    'integer',
    'nonNegativeInteger',
    'positiveInteger',
    'nonPositiveInteger',
    'negativeInteger',
  ].includes(primitive);
  if (numeric || big || primitive === 'decimal') {
    let value = primitive === 'positiveInteger' ? 1 : primitive === 'negativeInteger' ? -1 : 0;
    if (facets.minInclusive !== undefined) value = Math.max(value, Number(facets.minInclusive));
    if (facets.minExclusive !== undefined) value = Math.max(value, Math.floor(Number(facets.minExclusive)) + 1);
    if (facets.maxInclusive !== undefined) value = Math.min(value, Number(facets.maxInclusive));
    if (facets.maxExclusive !== undefined) value = Math.min(value, Math.ceil(Number(facets.maxExclusive)) - 1);
    if (facets.pattern !== undefined) {
      const text = patternSample(facets.pattern);
      if (text !== undefined && /^[+-]?\d+(\.\d+)?$/.test(text))
        return big ? `${BigInt(text.replace(/\..*/, ''))}n` : primitive === 'decimal' ? `'${text}'` : text;
    }
    if (big) return `${BigInt(Math.trunc(value))}n`;
    if (primitive === 'decimal') return `'${value}'`;
    return String(value);
  }
  if (['string', 'text'].includes(primitive)) {
    let text = facets.pattern !== undefined ? (patternSample(facets.pattern) ?? 'string') : 'string';
    const min = Number(facets.length ?? facets.minLength ?? 0);
    const max = Number(facets.length ?? facets.maxLength ?? Number.POSITIVE_INFINITY);
    if (facets.pattern === undefined) {
      if (text.length > max) text = text.slice(0, max);
      while (text.length < min) text += 's';
    }
    return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  }
  if (facets.pattern !== undefined && ['date', 'time', 'duration', 'gYear', 'guid'].includes(primitive)) return undefined;
  return undefined;
}

/**
 * The shortest text an XML Schema pattern matches, for the regular
 * expressions contracts use: literals, escapes, classes, groups,
 * alternatives (the first), quantifiers (their least count).
 */
export function patternSample(pattern: string): string | undefined {
  let i = 0;
  const classChar = (negated: boolean, members: string[]): string => {
    if (!negated) return members[0] ?? 'a';
    return ['a', 'A', '0', 'x', '_'].find((c) => !members.includes(c)) ?? 'z';
  };
  const escapeClass = (): { one: string; members: string[] } => {
    const c = pattern[i++];
    switch (c) {
      case 'd':
        return { one: '0', members: ['0'] };
      case 'w':
      case 'i':
      case 'c':
        return { one: 'a', members: ['a', 'A', '0'] };
      case 's':
        return { one: ' ', members: [' '] };
      case 'D':
      case 'W':
      case 'S':
      case 'I':
      case 'C':
        return { one: c === 'D' ? 'a' : c === 'S' ? 'a' : '-', members: [] };
      case 'p':
      case 'P': {
        const end = pattern.indexOf('}', i);
        i = end + 1;
        return { one: 'a', members: ['a'] };
      }
      case 'n':
        return { one: '\n', members: ['\n'] };
      case 't':
        return { one: '\t', members: ['\t'] };
      case 'r':
        return { one: '\r', members: ['\r'] };
      default:
        return { one: c, members: [c] };
    }
  };
  const atom = (): string | undefined => {
    const c = pattern[i];
    if (c === '(') {
      i++;
      if (pattern.startsWith('?:', i)) i += 2;
      const inner = alternatives();
      if (pattern[i] !== ')') return undefined;
      i++;
      return inner;
    }
    if (c === '[') {
      i++;
      const negated = pattern[i] === '^';
      if (negated) i++;
      const members: string[] = [];
      while (i < pattern.length && pattern[i] !== ']') {
        if (pattern[i] === '-' && pattern[i + 1] === '[') {
          // Subtraction: [a-z-[aeiou]]; the first member is kept unless subtracted.
          const end = pattern.indexOf(']', i);
          i = end + 1;
          continue;
        }
        let from: string;
        if (pattern[i] === '\\') {
          i++;
          const e = escapeClass();
          members.push(...e.members);
          continue;
        }
        from = pattern[i++];
        if (pattern[i] === '-' && pattern[i + 1] !== ']' && pattern[i + 1] !== '[') {
          i++;
          let to = pattern[i++];
          if (to === '\\') to = escapeClass().one;
          for (let code = from.charCodeAt(0); code <= to.charCodeAt(0) && members.length < 200; code++)
            members.push(String.fromCharCode(code));
        } else members.push(from);
      }
      i++;
      return classChar(negated, members);
    }
    if (c === '\\') {
      i++;
      return escapeClass().one;
    }
    if (c === '.') {
      i++;
      return 'a';
    }
    i++;
    return c;
  };
  const quantified = (): string | undefined => {
    const start = i;
    const one = atom();
    if (one === undefined) return undefined;
    void start;
    const q = pattern[i];
    if (q === '?' || q === '*') {
      i++;
      return '';
    }
    if (q === '+') {
      i++;
      return one;
    }
    if (q === '{') {
      const end = pattern.indexOf('}', i);
      const [min] = pattern.slice(i + 1, end).split(',');
      i = end + 1;
      return one.repeat(Number(min) || 0);
    }
    return one;
  };
  const sequence = (): string | undefined => {
    let out = '';
    while (i < pattern.length && pattern[i] !== '|' && pattern[i] !== ')') {
      const part = quantified();
      if (part === undefined) return undefined;
      out += part;
    }
    return out;
  };
  const alternatives = (): string | undefined => {
    const first = sequence();
    while (pattern[i] === '|') {
      i++;
      sequence();
    }
    return first;
  };
  const result = alternatives();
  return i >= pattern.length ? result : undefined;
}
