import { type ComplexTypeModel, complexTypeOf, type ContractModel, type TypeRef } from '../model';
import { encodeExpression } from './types';
import { GENERATED_HEADER } from './header';
import { render } from './render';

/** generated/routes.ts: the operation × variant table the bindings run on. */
export function emitRoutes(model: ContractModel): string {
  const operations = model.operations.map((op) => ({
    name: op.name,
    documentation: JSON.stringify(op.documentation),
    soapActionSuffix: op.soapActionSuffix,
    requestElement: op.request.element,
    responseElement: op.response.element,
    requestClass: op.request.type.name,
    responseClass: op.response.type.name,
    resultField: op.result.field,
    resultType: op.result.tsType,
    httpOperation: op.http.location.replace(/^\//, ''),
    httpFields: op.http.fields,
    httpResponseElement: op.http.answer.element,
    httpNillable: op.http.answer.nillable,
    // ASMX declares xsd/xsi on complex roots only; a primitive root is bare.
    httpSchemaPrefixes: op.http.answer.complex,
    httpContent: encodeExpression(op.http.answer.type, 'result'),
    sampleRequest: sampleObject(model, op.request.type),
    sampleResult: sampleExpression(model, op.result.type),
  }));
  return render('routes.ts.hbs', {
    header: GENERATED_HEADER,
    service: model.service,
    ports: model.ports,
    operations,
    classNames: model.types.map((t) => t.name),
  });
}

/**
 * A TypeScript expression building a sample value of a type, every field
 * filled with a placeholder that is valid for its schema type (the help
 * pages' samples validate against the schema).
 */
function sampleExpression(model: ContractModel, type: TypeRef): string {
  if (type.kind === 'primitive') return type.primitive === 'boolean' ? 'true' : "'string'";
  return sampleObject(model, complexTypeOf(model, type));
}

function sampleObject(model: ContractModel, type: ComplexTypeModel): string {
  const fields = type.fields.map((f) => `${f.name}: ${sampleExpression(model, f.type)}`);
  return `new ${type.name}({ ${fields.join(', ')} })`;
}
