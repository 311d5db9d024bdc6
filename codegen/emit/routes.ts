import {
  complexTypeOf,
  type ContractModel,
  type HeaderModel,
  type HttpAnswerModel,
  type OperationModel,
  repeats,
  resultFieldOf,
  type TypeRef,
} from '../model/model';
import { objectSample, sampleOf } from '../model/samples/samples';
import { type EmitFile, emitFile } from './file';
import { GENERATED, type Output, TYPES } from './header';
import { renderFile } from './render';
import { sampleCode } from './samples';
import { doubleQuote, type Literal, literal, quote } from './ts';
import { encodeExpression, joinLiterals, readsFields, simpleParse, tagOf, topLevelAttributes, typeText, writesAttributes } from './types';
import { enumValues } from './values';

/** routes.ts as it is written: the file, of a contract. */
type Routes = EmitFile<ContractModel>;

/** generated/routes.ts: the operation × variant table the bindings run on. */
export function emitRoutes(model: ContractModel, output: Output = GENERATED): string {
  const file = emitFile(model);
  const operations = model.operations.map((op) => route(file, op));
  const view = {
    header: output.header,
    service: model.service,
    namespace: doubleQuote(model.authoredNamespace),
    endpointPath: doubleQuote(model.endpointPath),
    endpointPaths: model.endpointPaths.map((p) => doubleQuote(p)).join(', '),
    ports: model.ports,
    operations,
    classNames: typesImport(file),
    encodedTypes: model.encodedTypes
      ? literal(model.encodedTypes as unknown as Literal, 0, 'const ENCODED_TYPES: SoapEncodedTypes = '.length)
      : '',
  };
  return renderFile('routes.ts.hbs', view, file.imports, output.runtime);
}

/** What routes.ts imports of ./types: the classes, the enumerations' values and types, xmlns, as the routes name them. */
function typesImport({ model, imports }: Routes): string[] {
  const uses = (name: string) => imports.usesLocal(TYPES, name);
  return [
    ...model.types.map((t) => t.name).filter(uses),
    ...model.enums.map((e) => enumValues(e.name)).filter(uses),
    ...model.enums
      .map((e) => e.name)
      .filter(uses)
      .map((name) => `type ${name}`),
    ...(uses('xmlns') ? ['xmlns'] : []),
  ].sort();
}

/** The start tag of a top-level element, as TypeScript text: default namespace (one-namespace contracts) or prefixes. */
function openTag({ model, imports }: Routes, name: string, namespace: string, attributes = ''): string {
  if (!model.prefixes) return `'<${name} xmlns="' + namespace + '"${attributes ? `' + ${attributes} + '` : ''}>'`;
  return `'<${tagOf(model, name, namespace)}' + ${imports.local(TYPES, 'xmlns')}(namespace)${attributes ? ` + ${attributes}` : ''} + '>'`;
}
const closeTag = (model: ContractModel, name: string, namespace: string) => `'</${tagOf(model, name, namespace)}>'`;

/** A literal namespace, or the run-time target namespace. */
const namespaceExpression = (model: ContractModel, namespace: string) =>
  namespace === model.authoredNamespace ? 'namespace' : quote(namespace);

/** One operation's entry of the table, as the template writes it. */
function route(file: Routes, op: OperationModel) {
  const { model, imports } = file;
  const soap = op.soap;
  const input = soap?.input;
  const output = soap?.output;
  const request = op.request.type;
  const firstPart = input?.style === 'parts' ? input.type.fields[0] : undefined;
  const requestElement =
    input?.style === 'element' ? input.element! : firstPart ? { name: firstPart.xmlName, namespace: firstPart.namespace } : undefined;
  const headers = soap?.headers ?? [];
  const inHeaders = headers.filter((h) => h.direction === 'in');
  const outHeaders = headers.filter((h) => h.direction === 'out');
  const encodeHeaders = outHeaders.length ? headersEncoder(file, outHeaders) : '';
  const encodeInHeaders = inHeaders.length ? headersEncoder(file, inHeaders) : '';
  const requestContent = requestBody(file, op);
  return {
    name: op.name,
    void: op.void,
    documentation: doubleQuote(op.documentation),
    ...soapActions(model, op),
    requestElement: requestElement?.name ?? '',
    requestNamespace: requestElement && requestElement.namespace !== model.authoredNamespace ? quote(requestElement.namespace) : '',
    requestParts: input?.style === 'parts',
    bodyMembers: sharesBody(model, op)
      ? literal(
          request.fields.map((f) => f.xmlName),
          4,
          '    bodyMembers: '.length,
        )
      : '',
    responseElement: output?.style === 'element' ? output.element!.name : (output?.type.fields[0]?.xmlName ?? ''),
    responseNamespace:
      output?.style === 'element' && output.element!.namespace !== model.authoredNamespace ? quote(output.element!.namespace) : '',
    responseParts: output?.style === 'parts',
    oneWay: op.oneWay,
    policies: op.policies ? literal(op.policies, 4, '    policies: '.length) : '',
    addressingActions: op.addressingActions ? literal(op.addressingActions, 4, '    addressingActions: '.length) : '',
    soapEncoding: soap?.encoding
      ? `version: ${quote(soap.encoding.version)}, input: ${literal(soap.encoding.input, 4, 80)}, output: ${literal(soap.encoding.output, 4, 80)}${soap.encoding.faults.length ? `, faults: ${literal(soap.encoding.faults, 4, 80)}` : ''}${soap.encoding.headers ? `, headers: ${literal(soap.encoding.headers, 4, 80)}` : ''}${soap.encoding.literalNames ? `, literalNames: ${literal(soap.encoding.literalNames, 4, 80)}, wireNames: ${literal(soap.encoding.wireNames!, 4, 80)}` : ''}`
      : '',
    inHeaders: inHeaders.map((h) => headerEntry(file, h)),
    outHeaders: outHeaders.map((h) => headerEntry(file, h)),
    hasHeaders: headers.length > 0,
    headersType: headers.length
      ? `{ in: { ${inHeaders.map((h) => `${h.name}?: ${typeText(file, h.type)}`).join('; ')} }; out: { ${outHeaders.map((h) => `${h.name}?: ${typeText(file, h.type)}`).join('; ')} } }`
      : '',
    encodeHeaders,
    requestClass: imports.local(TYPES, request.name),
    soapContent: joinLiterals(answerBody(file, op)),
    requestContent: joinLiterals(requestContent),
    encodeInHeaders,
    resultType: op.result ? typeText(file, op.result.type, op.result.tsType) : 'void',
    httpOperation: op.http?.segment ?? op.name,
    httpXml: op.http?.xmlBody?.mediaType ?? '',
    // An XML body is answered with the SOAP answer's element; a one-way operation's answer is empty.
    httpXmlAnswer: op.http?.xmlBody !== undefined && output?.style === 'element',
    httpFields: op.http?.fields ?? [],
    // Requests with fields HTTP cannot carry are taken over SOAP only (ASMX leaves them out of its HTTP bindings too).
    fromFields: readsFields(request),
    ...httpAnswer(file, op),
    sampleRequest: sampleCode(file, objectSample(model, request)),
    sampleResult: op.result ? sampleResult(file, op) : 'undefined',
    sampleHeaders: headers.length
      ? `() => ({ in: { ${inHeaders.map((h) => `${h.name}: ${sampleCode(file, sampleOf(model, h.type))}`).join(', ')} }, out: { ${outHeaders.map((h) => `${h.name}: ${sampleCode(file, sampleOf(model, h.type))}`).join(', ')} } })`
      : '',
  };
}

/**
 * Whether another operation takes the same request element (overloaded rpc operations: one name, told apart by
 * their parts): the route then lists the element's children, which choose among them.
 */
function sharesBody(model: ContractModel, op: OperationModel): boolean {
  const element = op.soap?.input.style === 'element' ? op.soap.input.element : undefined;
  if (!element || op.soap?.style !== 'rpc') return false;
  return model.operations.some((other) => {
    const theirs = other !== op && other.soap?.input.style === 'element' ? other.soap.input.element : undefined;
    return theirs !== undefined && theirs.name === element.name && theirs.namespace === element.namespace;
  });
}

/** Each version's SOAPAction: the suffix both share (after the namespace), and the literal ones (`{ soap12: '…' }`). */
function soapActions(model: ContractModel, op: OperationModel): { soapActionSuffix: string; soapActions: string } {
  const soap = op.soap;
  const suffix = (v: 'soap11' | 'soap12') => {
    const action = soap?.actions[v];
    return action && 'suffix' in action ? action.suffix : undefined;
  };
  const suffixes = [suffix('soap11'), suffix('soap12')].filter((s) => s !== undefined);
  const literal = (['soap11', 'soap12'] as const).flatMap((v) => {
    const action = soap?.actions[v];
    return action && 'literal' in action ? [`${v}: ${quote(action.literal)}`] : [];
  });
  // A version whose action is a suffix but not the other's: literal for that one too when they differ.
  const extraLiteral =
    suffixes.length === 2 && suffixes[0] !== suffixes[1] ? [`soap12: ${quote(model.authoredNamespace + suffixes[1])}`] : [];
  const all = [...literal, ...extraLiteral];
  return { soapActionSuffix: suffixes[0] ?? '', soapActions: all.length ? `{ ${all.join(', ')} }` : '' };
}

/** A header block's entry: its name, its element, and the reading of its element. */
function headerEntry(file: Routes, h: HeaderModel): string {
  const { model } = file;
  const namespace = h.element.namespace === model.authoredNamespace ? '' : `, namespace: ${quote(h.element.namespace)}`;
  return `{ name: ${quote(h.name)}, element: ${quote(h.element.name)}${namespace}, decode: (element) => ${decodeOf(file, h.type, 'element')} }`;
}

/** The function writing header blocks, each one set of `headers` as its element. */
function headersEncoder(file: Routes, headers: HeaderModel[]): string {
  const { model } = file;
  const block = (h: HeaderModel) => {
    const attributes = hasAttributes(model, h.type) ? `headers.${h.name}.xmlAttributes()` : '';
    const open = openTag(file, h.element.name, h.element.namespace, attributes);
    const close = closeTag(model, h.element.name, h.element.namespace);
    return `(headers.${h.name} === undefined ? '' : ${open} + ${encodeExpression(file, h.type, `headers.${h.name}`)} + ${close})`;
  };
  return `(headers, namespace) => ${headers.map(block).join(' + ')}`;
}

/** The SOAP body of the answer: the output element around the result (or its parts), as TypeScript over `result`. */
function answerBody(file: Routes, op: OperationModel): string {
  const { imports } = file;
  const output = op.soap?.output;
  if (!output) return "''";
  const type = output.type;
  const result = op.result;
  const value =
    result === undefined
      ? `new ${imports.local(TYPES, type.name)}()`
      : result.field
        ? `new ${imports.local(TYPES, type.name)}({ ${result.field}: result })`
        : 'result';
  if (output.style === 'parts') return `${value}.toXml(namespace)`;
  return elementAround(file, literalElement(op, output.element!, 'output'), topLevelAttributes(file, type, value), `${value}.toXml()`);
}

/** The SOAP body of a request, as a client sends it: the input element around `request` (or its parts). */
function requestBody(file: Routes, op: OperationModel): string {
  const input = op.soap?.input;
  if (!input) return "''";
  if (input.style === 'parts') return 'request.toXml(namespace)';
  return elementAround(
    file,
    literalElement(op, input.element!, 'input'),
    topLevelAttributes(file, op.request.type, 'request'),
    'request.toXml()',
  );
}

/** A body element as its literal form names it: an encoded overload's own name (`find1`), else the wire's. */
function literalElement(op: OperationModel, element: { name: string; namespace: string }, which: 'input' | 'output') {
  const names = op.soap?.encoding?.literalNames;
  return names ? { ...element, name: names[which] } : element;
}

/** A top-level element of the body, its start tag with `attributes` (an expression, or none), around `content`. */
function elementAround(file: Routes, element: { name: string; namespace: string }, attributes: string, content: string): string {
  const { model } = file;
  if (model.prefixes || element.namespace !== model.authoredNamespace)
    return `${openTag(file, element.name, element.namespace, attributes)} + ${content} + ${closeTag(model, element.name, element.namespace)}`;
  return `'<${element.name} xmlns="' + namespace + '"${attributes ? `' + ${attributes} + '` : ''}>' + ${content} + '</${element.name}>'`;
}

/** The HTTP GET/POST answer: its root element's start tag (and the nil one's), its content, its end tag. */
function httpAnswer(file: Routes, op: OperationModel) {
  const { model } = file;
  const answer = op.http?.answer;
  const nullable = /\| null\b/.test(op.result?.tsType ?? '');
  return {
    httpAnswer: answer !== undefined,
    httpResponseElement: answer?.element ?? '',
    httpOpen: answer ? httpOpen(file, answer) : '',
    httpNil: answer ? httpNil(file, answer) : '',
    httpClose: answer ? closeTag(model, answer.element, answer.namespace) : '',
    // xsi:nil where the result has no value: absent, or nil.
    httpNillable: (answer?.nillable ?? false) && (op.result?.mayBeAbsent === true || nullable),
    httpNilTest: nullable ? 'result === undefined || result === null' : 'result === undefined',
    httpContent: answer ? encodeExpression(file, answer.type, 'result') : "''",
  };
}

/** The start tag of the HTTP answer's root: xsi and xsd declared for a complex one, its namespace, its attributes. */
function httpOpen(file: Routes, answer: HttpAnswerModel): string {
  const { model, imports } = file;
  const complex = answer.type.kind === 'complex' ? complexTypeOf(model, answer.type) : undefined;
  const attributes = complex !== undefined && writesAttributes(complex);
  const xsd = () => imports.runtime('XSD_NAMESPACE');
  const xsi = () => imports.runtime('XSI_NAMESPACE');
  if (model.prefixes || answer.namespace !== model.authoredNamespace) {
    const schemaNamespaces = answer.complex ? ` + ' xmlns:xsd="' + ${xsd()} + '" xmlns:xsi="' + ${xsi()} + '"'` : '';
    return `'<${tagOf(model, answer.element, answer.namespace)}'${schemaNamespaces} + ${imports.local(TYPES, 'xmlns')}(namespace)${attributes ? ' + result.xmlAttributes()' : ''} + '>'`;
  }
  const schemaNamespaces = answer.complex ? ` xmlns:xsd="' + ${xsd()} + '" xmlns:xsi="' + ${xsi()} + '"` : '';
  return `'<${answer.element}${schemaNamespaces} xmlns="' + ${namespaceExpression(model, answer.namespace)} + '"${attributes ? "' + result.xmlAttributes() + '" : ''}>'`;
}

/** The HTTP answer's root when the result has no value: empty, xsi:nil. */
function httpNil(file: Routes, answer: HttpAnswerModel): string {
  const { model, imports } = file;
  const xsi = imports.runtime('XSI_NAMESPACE');
  if (model.prefixes || answer.namespace !== model.authoredNamespace)
    return `'<${tagOf(model, answer.element, answer.namespace)} xmlns:xsi="' + ${xsi} + '" xsi:nil="true"' + ${imports.local(TYPES, 'xmlns')}(namespace) + ' />'`;
  return `'<${answer.element} xmlns:xsi="' + ${xsi} + '" xsi:nil="true" xmlns="' + ${namespaceExpression(model, answer.namespace)} + '" />'`;
}

/** A sample of the result: of its field's type, an array of as many as the field's minOccurs (one at least) when it repeats. */
function sampleResult(file: Routes, op: OperationModel): string {
  const { model } = file;
  const result = op.result!;
  const field = resultFieldOf(op);
  // An element of anyType is kept whole (its value is the element): the answer's sample holds it.
  if (field?.type.kind === 'any' && op.soap?.output) return `${sampleCode(file, objectSample(model, op.soap.output.type))}.${field.name}`;
  const sample = sampleCode(file, sampleOf(model, result.type));
  return field && repeats(field) ? `[${Array(Math.max(1, field.minOccurs)).fill(sample).join(', ')}]` : sample;
}

function hasAttributes(model: ContractModel, ref: TypeRef): boolean {
  const type = ref.kind === 'complex' ? model.types.find((t) => t.name === ref.typeName) : undefined;
  return type !== undefined && writesAttributes(type);
}

/** Reads a header block's element: its class, its XML kept whole, or its text (a QName's prefix not resolved there). */
function decodeOf(file: Routes, type: TypeRef, element: string): string {
  if (type.kind === 'complex') return `${file.imports.local(TYPES, type.typeName)}.fromXml(${element})`;
  if (type.kind === 'any') return `${file.imports.runtime('xmlFragmentOf')}(${element})`;
  return simpleParse(file, type, `${element}.content`);
}
