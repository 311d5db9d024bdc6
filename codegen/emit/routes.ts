import { type ComplexTypeModel, complexTypeOf, type ContractModel, type OperationModel, type TypeRef } from '../model';
import { encodeExpression, firstValue } from './types';
import { GENERATED_HEADER } from './header';
import { render } from './render';
import { helpersUsed, valueCode } from './values';

/** What every routes.ts imports from xml-codec; a contract with more types adds to it. */
const XML_CODEC_IMPORTS = ['XML_DECLARATION', 'XSD_NAMESPACE', 'XSI_NAMESPACE', 'escapeXmlText', 'formatXsdBoolean'];

/** generated/routes.ts: the operation × variant table the bindings run on. */
export function emitRoutes(model: ContractModel): string {
  const operations = model.operations.map((op) => route(model, op));
  const code = operations.map((op) => [op.httpContent, op.sampleRequest, op.sampleResult].join('\n')).join('\n');
  const codecImports = [...XML_CODEC_IMPORTS, ...(operations.some((op) => !op.fromFields) ? ['DecodeError'] : [])];
  return render('routes.ts.hbs', {
    header: GENERATED_HEADER,
    service: model.service,
    namespace: JSON.stringify(model.authoredNamespace),
    endpointPath: JSON.stringify(model.endpointPath),
    ports: model.ports,
    operations,
    codecImports,
    valueImports: helpersUsed(code, 'xsd-values'),
    classNames: model.types.map((t) => t.name),
  });
}

function route(model: ContractModel, op: OperationModel) {
  const answer = op.http?.answer;
  const complexAnswer = answer?.type.kind === 'complex' ? complexTypeOf(model, answer.type) : undefined;
  return {
    name: op.name,
    void: op.void,
    documentation: JSON.stringify(op.documentation),
    soapActionSuffix: op.soapActionSuffix,
    requestElement: op.request.element,
    responseElement: op.response.element,
    requestClass: op.request.type.name,
    responseClass: op.response.type.name,
    soapContent: op.result
      ? `new ${op.response.type.name}({ ${op.result.field}: result }).toXml()`
      : `new ${op.response.type.name}().toXml()`,
    resultType: op.result?.tsType ?? 'void',
    httpOperation: (op.http?.location ?? `/${op.name}`).replace(/^\//, ''),
    httpFields: op.http?.fields ?? [],
    // Requests with fields HTTP cannot carry are taken over SOAP only (ASMX leaves them out of its HTTP bindings too).
    fromFields:
      op.request.type.attributes.length === 0 &&
      op.request.type.fields.every((f) => f.type.kind !== 'complex' && f.maxOccurs === 1 && !f.nillable),
    httpAnswer: answer !== undefined,
    httpResponseElement: answer?.element ?? '',
    httpNillable: answer?.nillable ?? false,
    // ASMX declares xsd/xsi on complex roots only; a primitive root is bare.
    httpSchemaPrefixes: answer?.complex ?? false,
    httpAttributes: complexAnswer?.attributes.length ? "' + result.xmlAttributes() + '" : '',
    httpContent: answer ? encodeExpression(answer.type, 'result') : "''",
    sampleRequest: sampleObject(model, op.request.type),
    sampleResult: op.result ? sampleExpression(model, op.result.type) : 'undefined',
  };
}

/**
 * A TypeScript expression building a sample value of a type, every field
 * filled with a placeholder that is valid for its schema type (the help
 * pages' samples validate against the schema); an array holds one item.
 */
function sampleExpression(model: ContractModel, type: TypeRef): string {
  if (type.kind !== 'complex') return valueCode(type, firstValue(model, type)).sample;
  return sampleObject(model, complexTypeOf(model, type));
}

function sampleObject(model: ContractModel, type: ComplexTypeModel): string {
  const fields = [
    ...type.fields.map((f) => {
      const sample = sampleExpression(model, f.type);
      return `${f.name}: ${f.maxOccurs === 'unbounded' ? `[${sample}]` : sample}`;
    }),
    ...type.attributes.map((a) => `${a.name}: ${sampleExpression(model, a.type)}`),
  ];
  return `new ${type.name}({ ${fields.join(', ')} })`;
}
