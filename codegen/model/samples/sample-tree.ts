/**
 * A sample value as plain data: the tree samples.ts and simple-values.ts make
 * from the model (strings, numbers, objects of the contract's classes, XML
 * fragments, each saying which class or enumeration it is of), and
 * emit/samples.ts writes as the TypeScript expression that builds it.
 */
import type { TypeRef } from '../model';

/** A sample value: what generated code builds, as data. */
export type Sample =
  | ObjectSample
  | { kind: 'array'; items: Sample[] }
  /** A string; `enumeration` names the enumeration it is a value of. */
  | { kind: 'string'; value: string; enumeration?: string }
  | { kind: 'number'; value: number }
  | { kind: 'bigint'; value: bigint }
  | { kind: 'boolean'; value: boolean }
  /** Bytes, all zero. */
  | { kind: 'bytes'; length: number }
  /** A value of a simple type, read from its lexical form (a fixed value, as the schema writes it). */
  | { kind: 'lexical'; type: SimpleValueRef; text: string }
  /** XML kept as text: its pieces one after the other (none: empty). */
  | { kind: 'xml'; pieces: XmlPiece[] }
  /** No value: a nillable member that would otherwise recur without end (xsi:nil). */
  | { kind: 'nil' };

/** An object of a class of the contract, its members in the order they are set. */
export interface ObjectSample {
  kind: 'object';
  class: string;
  members: { name: string; value: Sample }[];
}

/** A piece of a sample's XML. */
export type XmlPiece =
  /** Markup, written as it is. */
  | { kind: 'markup'; xml: string }
  /** A global element of a complex type: its class's sample, written by the class, with the element's tag around it. */
  | { kind: 'element'; name: string; namespace: string; value: ObjectSample; attributes: boolean };

/** A simple type: a built-in, an enumeration, a list. */
export type SimpleValueRef = Exclude<TypeRef, { kind: 'complex' | 'any' }>;
