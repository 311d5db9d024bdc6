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
