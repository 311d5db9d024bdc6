/**
 * An operation's HTTP GET and POST side: its fields (every simple member of
 * the request, as text) and its answer (the SOAP result's type, xsi:nil when
 * the result may be absent).
 */
import type { WsdlOperationFacts } from '../read/wsdl';
import type { ComplexTypeModel, ElementModel, HttpAnswerModel, ResultModel } from './model';

/**
 * HTTP GET and POST carry every parameter as text: each field must be a simple member of the request that occurs
 * once at most, and each member a field. So any variant's values decode alike (decodeFields).
 */
export function httpFields(op: WsdlOperationFacts, parts: string[], request: ComplexTypeModel): string[] {
  for (const name of parts) {
    const member = request.fields.find((f) => f.name === name || f.xmlName === name);
    if (!member || member.type.kind === 'complex' || member.type.kind === 'any' || member.maxOccurs !== 1 || member.nillable) {
      throw new Error(`codegen: HTTP field ${name} of ${op.name} must be a simple field of ${request.name} that occurs once at most`);
    }
  }
  const missing = request.fields.filter((f) => !parts.includes(f.xmlName)).map((f) => f.name);
  if (missing.length > 0)
    throw new Error(`codegen: the HTTP fields of ${op.name} must be every member of ${request.name} (not: ${missing.join(', ')})`);
  return parts;
}

/** The HTTP answer carries the SOAP result: the same type, and xsi:nil exactly when the result may be absent. */
export function httpAnswer(
  op: WsdlOperationFacts,
  element: ElementModel | undefined,
  result: ResultModel | undefined,
): HttpAnswerModel | undefined {
  if (!element || !result) {
    if (element || result)
      throw new Error(`codegen: ${op.name}: the HTTP answer and the SOAP result must both be there, or neither (a void operation)`);
    return undefined;
  }
  if (element.type.tsType !== result.type.tsType || element.type.kind !== result.type.kind) {
    throw new Error(
      `codegen: ${op.name}: the HTTP answer (${element.name}, ${element.type.tsType}) and the SOAP result (${result.field ?? 'the response'}, ${result.type.tsType}) must have the same type`,
    );
  }
  // A nillable answer writes xsi:nil where the result has no value (as ASMX does); a result that may be absent needs one.
  if (result.mayBeAbsent && !element.nillable) {
    throw new Error(
      `codegen: ${op.name}: the SOAP result ${result.field} may be absent (minOccurs="0"), so the HTTP answer must be nillable (element ${element.name})`,
    );
  }
  return {
    element: element.name,
    namespace: element.namespace,
    type: element.type,
    nillable: element.nillable,
    complex: element.type.kind === 'complex',
  };
}
