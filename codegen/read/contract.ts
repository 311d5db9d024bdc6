import { dirname, join } from 'node:path';
import { loadXmlEngine, type XmlDocument } from '../../src/xml/xml-engine';
import { readXmlFile } from './documents';
import { type ContractTexts, readTexts } from './texts';
import { readWsdl, type WsdlFacts } from './wsdl';
import { readXsd, type XsdFacts } from './xsd';

/** Everything codegen takes from schema/: the facts of the WSDL and of its XSD, and the texts to serve. */
export interface ContractFacts {
  wsdl: WsdlFacts;
  xsd: XsdFacts;
  texts: ContractTexts;
}

/** Reads schema/<wsdl file> and the XSD it imports from the same folder. */
export async function readContract(wsdlPath: string): Promise<ContractFacts> {
  await loadXmlEngine(); // codegen/main.ts has loaded it already; the tests call this function directly
  const opened: XmlDocument[] = [];
  const open = (path: string) => {
    const doc = readXmlFile(path);
    opened.push(doc);
    return doc;
  };
  try {
    const wsdlDocument = open(wsdlPath);
    const wsdl = readWsdl(wsdlDocument);
    const xsdDocument = open(join(dirname(wsdlPath), wsdl.schemaImport.location));
    const xsd = readXsd(xsdDocument, wsdl.schemaImport.location);
    const texts = readTexts(
      wsdlDocument,
      xsdDocument,
      xsd.elements.map((e) => e.name),
    );
    return { wsdl, xsd, texts };
  } finally {
    for (const doc of opened) doc.dispose();
  }
}
