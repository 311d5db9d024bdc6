/**
 * The SOAP envelope schemas (SOAP 1.1's and SOAP 1.2's, from the copies
 * codegen carries in codegen/standard/, with their notices there), compiled
 * by libxml2-wasm: a whole answer validated against them holds to the
 * envelope's rules, and a Fault (a global element of each) to its shape.
 * Body content of other namespaces is validated laxly, as the schemas say:
 * the payload is checked against the contract's own schemas apart.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { XsdValidator } from '../../src/runtime/xml/xml-engine';
import { compileSchemaSet } from '../../src/runtime/xml/xml-schema';
import type { SoapVersionName } from './xml-assertions';

const STANDARD = join(__dirname, '..', '..', 'codegen', 'standard');
const standard = (...path: string[]) => readFileSync(join(STANDARD, ...path), 'utf8');

const validators = new Map<SoapVersionName, XsdValidator>();

/** The envelope schema of `version`, compiled once (the XML Schema engine must be loaded). */
export function soapEnvelopeValidator(version: SoapVersionName): XsdValidator {
  let validator = validators.get(version);
  if (!validator) {
    validator =
      version === '1.1'
        ? compileSchemaSet([standard('schemas.xmlsoap.org', 'soap', 'envelope.xsd')])
        : compileSchemaSet([
            // compileSchemaSet reads the set's documents as N.xsd: the import of xml.xsd names it so.
            standard('www.w3.org', '2003', '05', 'soap-envelope.xsd').replace(
              'schemaLocation="http://www.w3.org/2001/xml.xsd"',
              'schemaLocation="1.xsd"',
            ),
            standard('www.w3.org', '2001', 'xml.xsd'),
          ]);
    validators.set(version, validator);
  }
  return validator;
}

/**
 * The SOAP 1.1 and 1.2 envelope schemas with WS-Addressing 1.0's, XML Signature's, wsse's and wsu's
 * (codegen/standard/'s copies): a header block or a fault detail of those namespaces is validated against these.
 */
const WS_SCHEMAS = [
  ['www.w3.org', '2001', 'xml.xsd'],
  ['schemas.xmlsoap.org', 'soap', 'envelope.xsd'],
  ['www.w3.org', '2003', '05', 'soap-envelope.xsd'],
  ['www.w3.org', 'TR', '2002', 'REC-xmldsig-core-20020212', 'xmldsig-core-schema.xsd'],
  ['www.w3.org', '2005', '08', 'addressing', 'ws-addr.xsd'],
  ['docs.oasis-open.org', 'wss', '2004', '01', 'oasis-200401-wss-wssecurity-utility-1.0.xsd'],
  ['docs.oasis-open.org', 'wss', '2004', '01', 'oasis-200401-wss-wssecurity-secext-1.0.xsd'],
];
let wsValidator: XsdValidator | undefined;

/** The namespaces of the SOAP stack's own header blocks, whose schemas wsHeaderValidator holds. */
export const WS_HEADER_NAMESPACES: ReadonlySet<string> = new Set([
  'http://www.w3.org/2005/08/addressing',
  'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd',
  'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd',
]);

/** The schemas of the envelopes and of WS-Addressing 1.0, XML Signature, wsse and wsu, compiled once. */
export function wsHeaderValidator(): XsdValidator {
  wsValidator ??= compileSchemaSet(WS_SCHEMAS.map((path) => standard(...path)));
  return wsValidator;
}
