import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { ContractModel, ElementModel, FieldModel, OperationModel, PRIMITIVES, TypeRef } from '../model';
import { GENERATED_HEADER } from './header';

const TEMPLATE = join(__dirname, '..', 'templates', 'client.ts.hbs');

/**
 * generated/client.ts: a typed client of the service, one method per
 * operation, over any of the four variants. Requests are encoded by the
 * generated classes' toXml(), answers decoded by their fromXml(); the wire
 * work (fetch, envelopes, faults) is src/client/exchange.ts.
 */
export function emitClient(model: ContractModel): string {
  const base = pascalCase(model.service);
  const operations = model.operations.map((op) => clientOperation(model, op));
  const classNames = [...new Set(operations.flatMap((op) => [op.requestClass, op.soapResponseClass, ...op.httpClasses]))];
  const compiled = Handlebars.compile(readFileSync(TEMPLATE, 'utf8'), { noEscape: true, strict: true });
  return compiled({
    header: GENERATED_HEADER,
    service: model.service,
    clientClass: `${base}Client`,
    errorClass: `${base}Error`,
    operations,
    classNames: classNames.sort(),
    fieldInterfaces: [...new Set(operations.map((op) => op.requestFields))].sort(),
    usesXsdBoolean: operations.some((op) => op.httpDecode.includes('parseXsdBoolean')),
    usesNil: operations.some((op) => op.httpDecode.includes('isNil(')),
    jsonReaders: ['jsonBoolean', 'jsonText', 'jsonStringMembers'].filter((reader) => operations.some((op) => op.jsonDecode.includes(`${reader}(`))),
  });
}

function clientOperation(model: ContractModel, op: OperationModel) {
  const element = (name: string): ElementModel => {
    const found = model.elements.find((e) => e.name === name);
    if (!found) throw new Error(`codegen: client: no element ${name}`);
    return found;
  };
  const requestType = complexName(element(op.soap.requestElement).type, op.soap.requestElement);
  const request = model.types.find((t) => t.name === requestType)!;
  for (const field of op.http.fields) {
    const member = request.fields.find((f) => f.name === field);
    if (!member || member.type.kind !== 'primitive' || member.type.primitive !== 'string') {
      throw new Error(`codegen: client: HTTP field ${field} of ${op.name} must be a string field of ${requestType}`);
    }
  }
  const soapResponseClass = complexName(element(op.soap.responseElement).type, op.soap.responseElement);
  const httpElement = element(op.http.responseElement);
  const result: FieldModel = op.soap.result;
  if (httpElement.type.kind !== result.type.kind || (httpElement.type.kind === 'complex' && tsType(httpElement.type) !== tsType(result.type))) {
    throw new Error(`codegen: client: ${op.name}: the HTTP answer and the SOAP result must have the same type`);
  }
  const mayBeAbsent = result.minOccurs === 0 || (httpElement.nillable && httpElement.type.kind === 'complex');
  return {
    name: op.name,
    method: op.name[0].toLowerCase() + op.name.slice(1),
    soapActionSuffix: op.soapActionSuffix,
    requestElement: op.soap.requestElement,
    soapResponseElement: op.soap.responseElement,
    httpLocation: op.http.location,
    httpResponseElement: op.http.responseElement,
    requestClass: requestType,
    requestFields: `${requestType}Fields`,
    httpFields: op.http.fields,
    resultType: tsType(result.type) + (mayBeAbsent ? ' | undefined' : ''),
    soapResponseClass,
    resultField: result.name,
    httpClasses: httpElement.type.kind === 'complex' ? [httpElement.type.typeName] : [],
    httpDecode: httpDecode(httpElement),
    jsonDecode: jsonDecode(model, result.type, mayBeAbsent),
  };
}

/** The expression decoding `d` of a JSON answer (named `d`) into the result type. */
function jsonDecode(model: ContractModel, type: TypeRef, mayBeAbsent: boolean): string {
  if (type.kind === 'primitive') return type.primitive === 'boolean' ? 'jsonBoolean(d)' : 'jsonText(d)';
  const complex = model.types.find((t) => t.name === type.typeName)!;
  if (complex.fields.some((f) => f.type.kind !== 'primitive' || f.type.primitive !== 'string')) {
    throw new Error(`codegen: client: the JSON variant reads result types of string fields only, not ${complex.name}`);
  }
  const members = complex.fields.map((f) => `'${f.name}'`).join(', ');
  const decode = `new ${complex.name}(jsonStringMembers(d, '${model.service}.${complex.name}', [${members}]))`;
  return mayBeAbsent ? `d === null ? undefined : ${decode}` : decode;
}

function complexName(type: TypeRef, element: string): string {
  if (type.kind !== 'complex') throw new Error(`codegen: client: element ${element} must have a complex type`);
  return type.typeName;
}

function tsType(ref: TypeRef): string {
  return ref.kind === 'primitive' ? PRIMITIVES[ref.primitive] : ref.typeName;
}

/** The expression decoding the root element of an HTTP GET/POST answer, named `element`. */
function httpDecode(httpElement: ElementModel): string {
  const type = httpElement.type;
  if (type.kind === 'complex') {
    const decode = `${type.typeName}.fromXml(element)`;
    return httpElement.nillable ? `isNil(element) ? undefined : ${decode}` : decode;
  }
  return type.primitive === 'boolean' ? 'parseXsdBoolean(element.content)' : 'element.content';
}

/** `AuthenticatorAPI` → `AuthenticatorApi`: a run of capitals reads as one word. */
function pascalCase(name: string): string {
  return name.replace(/([A-Z])([A-Z]+)(?=[A-Z][a-z]|$)/g, (_, first: string, rest: string) => first + rest.toLowerCase());
}
