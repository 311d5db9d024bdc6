import { readFileSync } from 'node:fs';
import { Document, Element, parseXml } from 'libxmljs2';

export const NS = {
  wsdl: 'http://schemas.xmlsoap.org/wsdl/',
  soap: 'http://schemas.xmlsoap.org/wsdl/soap/',
  soap12: 'http://schemas.xmlsoap.org/wsdl/soap12/',
  http: 'http://schemas.xmlsoap.org/wsdl/http/',
  mime: 'http://schemas.xmlsoap.org/wsdl/mime/',
  s: 'http://www.w3.org/2001/XMLSchema',
} as const;

export function readXmlFile(path: string): Document {
  return parseXml(readFileSync(path, 'utf8'), { noent: false, nonet: true, dtdload: false });
}

export function attr(element: Element, name: string): string {
  const value = element.attr(name)?.value();
  if (value === undefined) throw new Error(`codegen: <${element.name()}> has no ${name} attribute`);
  return value;
}

export function optionalAttr(element: Element, name: string): string | undefined {
  return element.attr(name)?.value();
}

export function findAll(node: Document | Element, xpath: string): Element[] {
  return node.find<Element>(xpath, NS);
}

export function findOne(node: Document | Element, xpath: string): Element {
  const found = findAll(node, xpath);
  if (found.length !== 1) throw new Error(`codegen: expected one ${xpath}, found ${found.length}`);
  return found[0];
}

/** `tns:Pair` → `Pair`: the contract has one target namespace, so local names identify. */
export function localName(qname: string): string {
  return qname.slice(qname.indexOf(':') + 1);
}
