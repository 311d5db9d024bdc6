/**
 * The WSDL documents of a contract (the main one and those it imports) and their lookups: a message, port type or
 * binding by its QName, and the children of one element by name, each indexed once.
 */
import type { XmlDocument, XmlElement } from 'contract-runtime/xml';
import { findAll, findOne, localName, namespaceOfQName, optionalAttr, refuseAt } from '../documents';

/** A WSDL document and the namespace its definitions are in. */
export interface Definitions {
  root: XmlElement;
  namespace: string;
}

export class WsdlDocuments {
  readonly all: Definitions[];
  // Children by name, indexed once per parent: a contract of a thousand operations is read in linear time.
  private readonly indexes: { parent: XmlElement; kind: string; byName: Map<string, XmlElement[]> }[] = [];

  constructor(documents: XmlDocument[]) {
    this.all = documents.map((doc) => {
      const root = findOne(doc, '/wsdl:definitions');
      return { root, namespace: optionalAttr(root, 'targetNamespace') ?? '' };
    });
  }

  /** The main document (the WSDL named), whose target namespace is the contract's. */
  get main(): Definitions {
    return this.all[0];
  }

  /** The `wsdl:KIND` children of `parent` named `name`. */
  childrenNamed(parent: XmlElement, kind: string, name: string): XmlElement[] {
    let index = this.indexes.find((i) => i.kind === kind && i.parent.isSameNode(parent));
    if (!index) {
      const byName = new Map<string, XmlElement[]>();
      for (const child of findAll(parent, `wsdl:${kind}`)) {
        const key = optionalAttr(child, 'name') ?? '';
        byName.set(key, [...(byName.get(key) ?? []), child]);
      }
      index = { parent, kind, byName };
      this.indexes.push(index);
    }
    return index.byName.get(name) ?? [];
  }

  /** The one declaration a QName (written at `at`) names, of any document of its namespace; refused when there is none or several. */
  lookup(kind: 'message' | 'portType' | 'binding', at: XmlElement, qname: string): XmlElement {
    const namespace = namespaceOfQName(at, qname);
    const name = localName(qname);
    const found = this.all.flatMap((d) => (namespace === null || d.namespace === namespace ? this.childrenNamed(d.root, kind, name) : []));
    if (found.length !== 1) refuseAt(at, `${kind} ${name} is ${found.length ? 'declared more than once' : 'not declared'}`);
    return found[0];
  }
}
