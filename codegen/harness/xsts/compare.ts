/**
 * The suite's comparison of a written document with the instance it was
 * read from, by value: the same elements in the same order, with the same
 * names and namespaces; the same attributes, in any order; every simple
 * value equal in its type's value space (the type as the schema declares it:
 * an element's, an attribute's, or the one xsi:type names); mixed text and
 * wildcard content as they were. xsi:schemaLocation and
 * xsi:noNamespaceSchemaLocation are hints to a validator, not content, and
 * namespace declarations and prefixes are not compared (names are).
 */
import { parseXsdQName, xml, type XmlElement } from 'contract-runtime/xml';
import { type ComplexTypeModel, type EnumModel, type FieldModel, PRIMITIVES, type SchemaModel, type TypeRef } from '../../model/model';
import { builtinRef } from '../../model/type-refs';
import { equalValues } from './values';

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const XSD = 'http://www.w3.org/2001/XMLSchema';

/** The first difference between an instance and what was written from it, as one line; undefined when there is none. */
export function firstDifference(model: SchemaModel, input: XmlElement, output: XmlElement): string | undefined {
  const enums = new Map(model.enums.map((e) => [e.name, e]));
  const declared = model.elements.find((e) => e.name === input.name && e.namespace === (input.namespaceUri ?? ''));
  const comparer = new Comparer(model, enums);
  return comparer.element(input, output, declared, `/${input.name}`);
}

/**
 * Of an instance's element and attribute values (xsi's attributes and namespace declarations are none), how many the
 * generated classes read into a typed field: not kept as XML (a wildcard's element, anyType's or mixed content, an
 * anyAttribute's attribute) and not kept as a string where the type's values are not strings (a union, a number,
 * boolean or binary value restricted by a pattern).
 */
export function typedValues(model: SchemaModel, input: XmlElement): { all: number; typed: number } {
  const enums = new Map(model.enums.map((e) => [e.name, e]));
  const declared = model.elements.find((e) => e.name === input.name && e.namespace === (input.namespaceUri ?? ''));
  const counts = { all: 0, typed: 0 };
  new Comparer(model, enums).count(input, declared, counts, false);
  return counts;
}

/** Whether a simple type's values are read as values of their type (a string type's as strings). */
function typedRef(ref: TypeRef): boolean {
  if (ref.kind === 'list') return typedRef(ref.item);
  if (ref.kind !== 'primitive') return ref.kind === 'enum';
  if (ref.primitive !== 'text') return true;
  const builtin = ref.builtin ?? 'string';
  // A union's text, unless its value is its member's (discriminated).
  if (builtin === 'union') return ref.discriminated === true;
  // A pattern-restricted number, boolean or binary value kept as its text.
  return !(builtin in PRIMITIVES) || PRIMITIVES[builtin as keyof typeof PRIMITIVES] === 'string';
}

interface Declared {
  type: TypeRef;
  nillable: boolean;
  /** The value an empty element holds (a default or fixed value). */
  default?: string;
}

class Comparer {
  private readonly byQName = new Map<string, ComplexTypeModel>();
  private readonly byName = new Map<string, ComplexTypeModel>();

  constructor(
    private readonly model: SchemaModel,
    private readonly enums: ReadonlyMap<string, EnumModel>,
  ) {
    for (const type of model.types) {
      this.byName.set(type.name, type);
      if (!type.anonymous && !type.message && !type.group) this.byQName.set(`{${type.namespace}}${type.xmlName}`, type);
    }
  }

  element(a: XmlElement, b: XmlElement, declared: Declared | undefined, path: string): string | undefined {
    if (a.name !== b.name || (a.namespaceUri ?? '') !== (b.namespaceUri ?? '')) {
      return `${path}: {${a.namespaceUri ?? ''}}${a.name} was written as {${b.namespaceUri ?? ''}}${b.name}`;
    }
    // An element no declaration describes (a wildcard's, skipped) is compared as it is, xsi's attributes too.
    if (declared === undefined && !a.attrs.some((attribute) => attribute.name === 'type' && attribute.namespaceUri === XSI)) {
      return this.attributes(a, b, undefined, path, true) ?? this.untypedContent(a, b, path);
    }
    const nilA = xsiBoolean(a, 'nil');
    const nilB = xsiBoolean(b, 'nil');
    if (nilA !== nilB) return `${path}: xsi:nil ${nilA} was written as ${nilB}`;
    // The type each side's element has: the one xsi:type names, or the declared one.
    const typeA = this.effectiveType(a, declared?.type);
    const typeB = this.effectiveType(b, declared?.type);
    if (typeKey(typeA) !== typeKey(typeB)) return `${path}: of type ${typeKey(typeA)}, written as of type ${typeKey(typeB)}`;
    const complex = typeA?.kind === 'complex' ? this.byName.get(typeA.typeName) : undefined;
    const attributes = this.attributes(a, b, complex, path);
    if (attributes) return attributes;
    if (nilA) return elementChildren(b).length || textOf(b).trim() ? `${path}: a nil element was written with content` : undefined;
    // Read lax: its elements that global declarations describe compared as their types.
    if (typeA?.kind === 'any' && typeA.lax) return this.untypedContent(a, b, path, (child) => this.globalElement(child));
    if (typeA === undefined || typeA.kind === 'any') return this.untypedContent(a, b, path);
    if (typeA.kind !== 'complex') return this.simple(typeA, a, b, path, declared?.default);
    if (!complex) return `${path}: no class for type ${typeA.typeName}`;
    if (complex.text) return this.simple(complex.text, a, b, path);
    if (complex.mixed) return this.untypedContent(a, b, path, (child) => this.childDeclared(complex, child));
    const [childrenA, childrenB] = [elementChildren(a), elementChildren(b)];
    for (let i = 0; i < Math.max(childrenA.length, childrenB.length); i++) {
      const [x, y] = [childrenA[i], childrenB[i]];
      const at = `${path}/${(x ?? y).name}[${i + 1}]`;
      if (!x) return `${at}: written, but not in the instance`;
      if (!y) return `${at}: in the instance, but not written`;
      const difference = this.element(x, y, this.childDeclared(complex, x), at);
      if (difference) return difference;
    }
    return undefined;
  }

  /** Counts an element's values and its descendants' (`kept`: inside content kept as XML). */
  count(element: XmlElement, declared: Declared | undefined, counts: { all: number; typed: number }, kept: boolean): void {
    const attributes = element.attrs.filter((a) => a.namespaceUri !== XSI);
    counts.all += 1 + attributes.length;
    const named = element.attrs.some((a) => a.name === 'type' && a.namespaceUri === XSI);
    if (!kept && declared?.type.kind === 'any' && declared.type.lax) {
      // Read lax (the runtime's AnyType): its text and attributes as text, an element a global declaration
      // describes into that declaration's type, any other kept as XML (xsi:type stays an attribute).
      counts.typed += 1 + attributes.length;
      for (const child of elementChildren(element)) {
        const global = this.globalElement(child);
        this.count(child, global, counts, global === undefined);
      }
      return;
    }
    const type = kept || (declared === undefined && !named) ? undefined : this.effectiveType(element, declared?.type);
    if (type === undefined || type.kind === 'any') {
      for (const child of elementChildren(element)) this.count(child, undefined, counts, true);
      return;
    }
    if (type.kind !== 'complex') {
      // The value is read as the declared type's (an xsi:type kept beside it); anySimpleType's is its text.
      const held = declared && declared.type.kind !== 'complex' && declared.type.kind !== 'any' ? declared.type : type;
      const anySimple = held.kind === 'primitive' && held.builtin === 'anySimpleType';
      if (typedRef(held) && (!anySimple || typedRef(type))) counts.typed++;
      return;
    }
    const complex = this.byName.get(type.typeName);
    if (!complex) return;
    if (complex.text === undefined || typedRef(complex.text)) counts.typed++;
    for (const a of attributes) {
      const attribute = complex.attributes.find((d) => d.xmlName === a.name && d.namespace === (a.namespaceUri ?? ''));
      if (attribute && typedRef(attribute.type)) counts.typed++;
    }
    for (const child of elementChildren(element))
      this.count(child, complex.mixed ? undefined : this.childDeclared(complex, child), counts, complex.mixed === true);
  }

  private simple(ref: TypeRef, a: XmlElement, b: XmlElement, path: string, empty?: string): string | undefined {
    if (elementChildren(b).length > 0) return `${path}: simple content was written with elements`;
    // An empty element holds its declaration's default (or fixed) value.
    const [x, y] = [textOf(a) || (empty ?? ''), textOf(b) || (empty ?? '')];
    return equalValues(ref, x, y, { element: a }, { element: b }, this.enums)
      ? undefined
      : `${path}: ${JSON.stringify(x.slice(0, 60))} was written as ${JSON.stringify(y.slice(0, 60))}`;
  }

  /** Content no type describes (a wildcard's, anyType's, mixed content): the same nodes, text as it was. */
  private untypedContent(
    a: XmlElement,
    b: XmlElement,
    path: string,
    declaredOf: (child: XmlElement) => Declared | undefined = () => undefined,
  ): string | undefined {
    const [x, y] = [contentNodes(a, true), contentNodes(b, true)];
    for (let i = 0; i < Math.max(x.length, y.length); i++) {
      const [p, q] = [x[i], y[i]];
      const at = `${path}/node()[${i + 1}]`;
      if (p === undefined || q === undefined)
        return `${at}: ${p === undefined ? 'written, but not in the instance' : 'in the instance, but not written'}`;
      if (typeof p === 'string' || typeof q === 'string') {
        if (p !== q) return `${at}: ${JSON.stringify(String(p).slice(0, 60))} was written as ${JSON.stringify(String(q).slice(0, 60))}`;
        continue;
      }
      const difference = this.element(p, q, declaredOf(p), `${path}/${p.name}`);
      if (difference) return difference;
    }
    return undefined;
  }

  private attributes(a: XmlElement, b: XmlElement, type: ComplexTypeModel | undefined, path: string, xsiToo = false): string | undefined {
    const [x, y] = [compared(a, xsiToo), compared(b, xsiToo)];
    for (const key of new Set([...x.keys(), ...y.keys()])) {
      const [p, q] = [x.get(key), y.get(key)];
      if (p === undefined || q === undefined)
        return `${path}/@${key}: ${p === undefined ? 'written, but not in the instance' : 'in the instance, but not written'}`;
      const declared = type?.attributes.find((attribute) => `{${attribute.namespace}}${attribute.xmlName}` === key);
      const equal = declared ? equalValues(declared.type, p, q, { element: a }, { element: b }, this.enums) : p === q;
      if (!equal) return `${path}/@${key}: ${JSON.stringify(p.slice(0, 60))} was written as ${JSON.stringify(q.slice(0, 60))}`;
    }
    return undefined;
  }

  /** The global declaration of an element's name and namespace, if the schema set has one. */
  private globalElement(element: XmlElement): Declared | undefined {
    const found = this.model.elements.find((e) => e.name === element.name && e.namespace === (element.namespaceUri ?? ''));
    return found
      ? { type: found.type, nillable: found.nillable, ...(found.default !== undefined ? { default: found.default } : {}) }
      : undefined;
  }

  /** The declaration of a child element in a class: a field (a group's too) of its name and namespace. */
  private childDeclared(type: ComplexTypeModel, child: XmlElement): Declared | undefined {
    const found = this.fieldOf(type, child.name, child.namespaceUri ?? '', new Set());
    if (!found) return this.laxWildcard(type, new Set()) ? this.globalElement(child) : undefined;
    return { type: found.type, nillable: found.nillable, ...(found.default !== undefined ? { default: found.default } : {}) };
  }

  /** Whether a class (or a group it holds) has a wildcard field whose elements are read into their declarations' types. */
  private laxWildcard(type: ComplexTypeModel, seen: Set<string>): boolean {
    if (seen.has(type.name)) return false;
    seen.add(type.name);
    return type.fields.some((f) => {
      if (f.type.kind === 'any' && f.type.wildcard === 'lax') return true;
      const group = f.inline && f.type.kind === 'complex' ? this.byName.get(f.type.typeName) : undefined;
      return group !== undefined && this.laxWildcard(group, seen);
    });
  }

  private fieldOf(type: ComplexTypeModel, name: string, namespace: string, seen: Set<string>): FieldModel | undefined {
    if (seen.has(type.name)) return undefined;
    seen.add(type.name);
    for (const field of type.fields) {
      if (field.inline && field.type.kind === 'complex') {
        const group = this.byName.get(field.type.typeName);
        const found = group && this.fieldOf(group, name, namespace, seen);
        if (found) return found;
      } else if (field.xmlName === name && field.namespace === namespace) return field;
    }
    return undefined;
  }

  /** The type an element has: the one its xsi:type names (a class, or a built-in), else the declared one. */
  private effectiveType(element: XmlElement, declared: TypeRef | undefined): TypeRef | undefined {
    const named = element.attrs.find((attribute) => attribute.name === 'type' && attribute.namespaceUri === XSI)?.value;
    if (named === undefined) return declared;
    let key: string | undefined;
    try {
      const name = parseXsdQName(named, element);
      key = name.startsWith('{') ? name : `{}${name}`;
    } catch {
      key = undefined;
    }
    const type = key === undefined ? undefined : this.byQName.get(key);
    if (type) return { kind: 'complex', typeName: type.name, tsType: type.name };
    // A simple type of the schema's (the model's root types are its global ones).
    const simple = this.model.rootTypes?.find((t) => `{${t.namespace}}${t.name}` === key && t.type.kind !== 'complex');
    if (simple) return simple.type;
    if (key?.startsWith(`{${XSD}}`)) {
      try {
        return builtinRef(key.slice(XSD.length + 2), 'xsi:type');
      } catch {
        return { kind: 'any', tsType: 'XmlFragment' };
      }
    }
    return declared;
  }
}

const typeKey = (ref: TypeRef | undefined) =>
  ref === undefined
    ? 'anyType'
    : ref.kind === 'complex' || ref.kind === 'enum'
      ? ref.typeName
      : ref.kind === 'primitive'
        ? ref.primitive
        : ref.kind;

function xsiBoolean(element: XmlElement, name: string): boolean {
  const value = element.attrs.find((attribute) => attribute.name === name && attribute.namespaceUri === XSI)?.value.trim();
  return value === 'true' || value === '1';
}

/** The attributes compared, by `{namespace}name`: all but xsi's (a validator's hints, the nil and type read apart), or all. */
function compared(element: XmlElement, xsiToo = false): Map<string, string> {
  const hint = (name: string) => name === 'schemaLocation' || name === 'noNamespaceSchemaLocation';
  return new Map(
    element.attrs
      .filter((attribute) => attribute.namespaceUri !== XSI || (xsiToo && !hint(attribute.name)))
      .map((attribute) => [`{${attribute.namespaceUri ?? ''}}${attribute.name}`, attribute.value]),
  );
}

function elementChildren(element: XmlElement): XmlElement[] {
  return contentNodes(element).filter((node): node is XmlElement => typeof node !== 'string');
}

/** An element's text: its text and CDATA children, comments and processing instructions left out. */
function textOf(element: XmlElement): string {
  return contentNodes(element, true)
    .filter((node): node is string => typeof node === 'string')
    .join('');
}

/**
 * Elements and text (adjacent text and CDATA joined), in order. Without `keepSpace` (element-only content), text
 * of white space alone between elements is left out: it is no content there.
 */
function contentNodes(element: XmlElement, keepSpace = false): (XmlElement | string)[] {
  const { XmlElement: Element, XmlText, XmlCData, XmlComment } = xml();
  const nodes: (XmlElement | string)[] = [];
  for (let child = element.firstChild; child; ) {
    if (child instanceof Element) nodes.push(child);
    else if (child instanceof XmlText || child instanceof XmlCData) {
      if (typeof nodes.at(-1) === 'string') nodes[nodes.length - 1] += child.content;
      else nodes.push(child.content);
    } else if (!(child instanceof XmlComment)) break; // a processing instruction's wrapper has no `next`
    child = child.next;
  }
  if (keepSpace || nodes.every((node) => typeof node === 'string')) return nodes;
  return nodes.filter((node) => typeof node !== 'string' || node.trim() !== '');
}
