import { complexTypeOf, type ContractModel, type HttpAnswerModel, type OperationModel, type ResultModel } from '../model';
import { GENERATED_HEADER } from './header';
import { render } from './render';

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
  return render('client.ts.hbs', {
    header: GENERATED_HEADER,
    service: model.service,
    clientClass: `${base}Client`,
    errorClass: `${base}Error`,
    operations,
    classNames: classNames.sort(),
    fieldInterfaces: [...new Set(operations.map((op) => op.requestFields))].sort(),
    usesXsdBoolean: operations.some((op) => op.httpDecode.includes('parseXsdBoolean')),
    usesNil: operations.some((op) => op.httpDecode.includes('isNil(')),
    jsonReaders: ['jsonBoolean', 'jsonText', 'jsonStringMembers'].filter((reader) =>
      operations.some((op) => op.jsonDecode.includes(`${reader}(`)),
    ),
  });
}

function clientOperation(model: ContractModel, op: OperationModel) {
  const answer = op.http.answer;
  return {
    name: op.name,
    method: op.name[0].toLowerCase() + op.name.slice(1),
    soapActionSuffix: op.soapActionSuffix,
    requestElement: op.request.element,
    soapResponseElement: op.response.element,
    httpLocation: op.http.location,
    httpResponseElement: answer.element,
    requestClass: op.request.type.name,
    requestFields: op.request.type.fieldsInterface,
    httpFields: op.http.fields,
    resultType: op.result.tsType,
    soapResponseClass: op.response.type.name,
    resultField: op.result.field,
    httpClasses: answer.type.kind === 'complex' ? [answer.type.typeName] : [],
    httpDecode: httpDecode(answer),
    jsonDecode: jsonDecode(model, op.result),
  };
}

/** The expression decoding `d` of a JSON answer (named `d`) into the result type; null is an absent result. */
function jsonDecode(model: ContractModel, result: ResultModel): string {
  const type = result.type;
  let decode: string;
  if (type.kind === 'primitive') decode = type.primitive === 'boolean' ? 'jsonBoolean(d)' : 'jsonText(d)';
  else {
    const complex = complexTypeOf(model, type);
    if (complex.fields.some((f) => f.type.kind !== 'primitive' || f.type.primitive !== 'string')) {
      throw new Error(`codegen: client: the JSON variant reads result types of string fields only, not ${complex.name}`);
    }
    const members = complex.fields.map((f) => `'${f.name}'`).join(', ');
    decode = `new ${complex.name}(jsonStringMembers(d, '${model.service}.${complex.name}', [${members}]))`;
  }
  return result.mayBeAbsent ? `d === null ? undefined : ${decode}` : decode;
}

/** The expression decoding the root element of an HTTP GET/POST answer, named `element`; xsi:nil is an absent result. */
function httpDecode(answer: HttpAnswerModel): string {
  const type = answer.type;
  let decode: string;
  if (type.kind === 'complex') decode = `${type.typeName}.fromXml(element)`;
  else decode = type.primitive === 'boolean' ? 'parseXsdBoolean(element.content)' : 'element.content';
  return answer.nillable ? `isNil(element) ? undefined : ${decode}` : decode;
}

/** `AuthenticatorAPI` → `AuthenticatorApi`: a run of capitals reads as one word. */
function pascalCase(name: string): string {
  return name.replace(/([A-Z])([A-Z]+)(?=[A-Z][a-z]|$)/g, (_, first: string, rest: string) => first + rest.toLowerCase());
}
