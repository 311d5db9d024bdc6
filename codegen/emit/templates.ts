import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { ContractModel, Segment, TypeRef } from '../model';
import { encodeExpression } from './classes';
import { GENERATED_HEADER } from './header';
import { scriptProxySegments } from './json';

const TEMPLATES = join(__dirname, '..', 'templates');

function render(template: string, view: object): string {
  const compiled = Handlebars.compile(readFileSync(join(TEMPLATES, template), 'utf8'), { noEscape: true, strict: true });
  return compiled(view);
}

/** generated/routes.ts: the operation × variant table the bindings run on. */
export function emitRoutes(model: ContractModel): string {
  const operations = model.operations.map((op) => {
    const httpElement = model.elements.find((e) => e.name === op.http.responseElement)!;
    const result = op.soap.result;
    const resultType =
      (result.type.kind === 'primitive' ? result.type.primitive : result.type.typeName) +
      (result.minOccurs === 0 ? ' | undefined' : '');
    if (httpElement.type.kind !== result.type.kind) {
      throw new Error(`codegen: ${op.name}: the HTTP answer and the SOAP result must have the same type`);
    }
    return {
      name: op.name,
      documentation: JSON.stringify(op.documentation),
      soapActionSuffix: op.soapActionSuffix,
      requestElement: op.soap.requestElement,
      responseElement: op.soap.responseElement,
      requestClass: op.soap.requestElement,
      responseClass: op.soap.responseElement,
      resultField: result.name,
      resultType,
      httpOperation: op.http.location.replace(/^\//, ''),
      httpFields: op.http.fields,
      httpResponseElement: httpElement.name,
      httpNillable: httpElement.nillable && result.minOccurs === 0,
      // ASMX declares xsd/xsi on complex roots only; a primitive root is bare.
      httpSchemaPrefixes: httpElement.type.kind === 'complex',
      httpContent: encodeExpression(httpElement.type, 'result'),
      sampleRequest: sampleExpression(model, { kind: 'complex', typeName: op.soap.requestElement }),
      sampleResult: sampleExpression(model, result.type),
    };
  });
  const classNames = model.types.map((t) => t.name);
  return render('routes.ts.hbs', {
    header: GENERATED_HEADER,
    service: model.service,
    ports: model.ports,
    operations,
    classNames,
  });
}

/**
 * A TypeScript expression building a sample value of a type, every field
 * filled with a placeholder that is valid for its schema type (the help
 * pages' samples validate against the schema).
 */
function sampleExpression(model: ContractModel, type: TypeRef): string {
  if (type.kind === 'primitive') return type.primitive === 'boolean' ? 'true' : "'string'";
  const complex = model.types.find((t) => t.name === type.typeName);
  if (!complex) throw new Error(`codegen: unknown type ${type.typeName}`);
  const fields = complex.fields.map((f) => `${f.name}: ${sampleExpression(model, f.type)}`);
  return `new ${complex.name}({ ${fields.join(', ')} })`;
}

/** generated/documents.ts: the WSDL and schema texts with their run-time holes. */
export function emitDocuments(model: ContractModel): string {
  return render('documents.ts.hbs', {
    header: GENERATED_HEADER,
    wsdl: expressions(model.wsdl),
    schema: expressions(model.schema),
    requestSchemas: Object.entries(model.requestSchemas).map(([name, segments]) => ({
      name,
      segments: expressions(segments),
    })),
    scriptProxy: expressions(scriptProxySegments(model)),
  });
}

/** Each segment as a TypeScript expression: a string literal, or the variable that fills the hole. */
function expressions(segments: Segment[]): string[] {
  return segments.map((s) => ('text' in s ? JSON.stringify(s.text) : s.hole === 'namespace' ? 'ns' : 'location'));
}
