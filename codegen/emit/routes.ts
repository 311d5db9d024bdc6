import {
  type ComplexTypeModel,
  complexTypeOf,
  type ContractModel,
  type OperationModel,
  repeats,
  resultFieldOf,
  type TypeRef,
} from '../model/model';
import { GENERATED, type Output, runtimeImport } from './header';
import { render } from './render';
import { doubleQuote, quote } from './ts';
import { objectSample, sampleOf } from '../model/samples/samples';
import { sampleCode } from './samples';
import { encodeExpression, joinLiterals, tagOf } from './types';
import { helpersUsed } from './values';

/** What every routes.ts imports from xml-codec; a contract with more types adds to it. */
const XML_CODEC_IMPORTS = ['XML_DECLARATION', 'XSD_NAMESPACE', 'XSI_NAMESPACE', 'escapeXmlText', 'formatXsdBoolean'];

/** generated/routes.ts: the operation × variant table the bindings run on. */
export function emitRoutes(model: ContractModel, output: Output = GENERATED): string {
  const operations = model.operations.map((op) => route(model, op));
  const code = operations
    .map((op) =>
      [op.httpOpen, op.httpNil, op.httpContent, op.sampleRequest, op.sampleResult, op.sampleHeaders, op.soapContent, op.extra].join('\n'),
    )
    .join('\n');
  const codecImports = [
    ...XML_CODEC_IMPORTS,
    ...(operations.some((op) => !op.fromFields) ? ['DecodeError'] : []),
    ...['escapeXmlAttribute', 'xmlFragmentOf', 'parseXsdBoolean'].filter((n) => code.includes(`${n}(`)),
    // A result or header kept as XML is typed XmlFragment in Operations.
    ...(operations.some((op) => /\bXmlFragment\b/.test(`${op.resultType} ${op.headersType}`)) ? ['type XmlFragment'] : []),
  ];
  const named = (name: string, text: string) => new RegExp(`(?<![\\p{ID_Continue}$])${name}(?![\\p{ID_Continue}$])`, 'u').test(text);
  // The Operations interface names the result's and the headers' types too (a union of derived classes among them).
  const typed = operations.map((op) => `${op.resultType} ${op.headersType}`).join('\n');
  const used = (name: string) => named(name, code) || named(name, typed) || operations.some((op) => op.requestClass === name);
  return render('routes.ts.hbs', {
    header: output.header,
    runtimeImport: runtimeImport(
      [
        'type Handlers as ContractHandlers',
        'type Route as ContractRoute',
        'type Port',
        'type Variant',
        ...codecImports,
        ...helpersUsed(code, 'xsd-values'),
      ],
      output.runtime,
    ),
    service: model.service,
    namespace: doubleQuote(model.authoredNamespace),
    endpointPath: doubleQuote(model.endpointPath),
    endpointPaths: model.endpointPaths.map((p) => doubleQuote(p)).join(', '),
    ports: model.ports,
    operations,
    classNames: [
      ...model.types.map((t) => t.name).filter(used),
      ...model.enums.map((e) => `${e.name}Values`).filter(used),
      // An enumeration named as a type only (a result's): imported as a type.
      ...model.enums
        .map((e) => e.name)
        .filter((name) => used(name) || operations.some((op) => named(name, op.resultType)))
        .map((name) => `type ${name}`),
      ...(code.includes('xmlns(') ? ['xmlns'] : []),
    ].sort(),
  });
}

/** The start tag of a top-level element, as TypeScript text: default namespace (one-namespace contracts) or prefixes. */
function openTag(model: ContractModel, name: string, namespace: string, attributes = ''): string {
  if (!model.prefixes) return `'<${name} xmlns="' + namespace + '"${attributes ? `' + ${attributes} + '` : ''}>'`;
  return `'<${tagOf(model, name, namespace)}' + xmlns(namespace)${attributes ? ` + ${attributes}` : ''} + '>'`;
}
const closeTag = (model: ContractModel, name: string, namespace: string) => `'</${tagOf(model, name, namespace)}>'`;

/** A literal namespace, or the run-time target namespace. */
const namespaceExpression = (model: ContractModel, namespace: string) =>
  namespace === model.authoredNamespace ? 'namespace' : quote(namespace);

function route(model: ContractModel, op: OperationModel) {
  const answer = op.http?.answer;
  const complexAnswer = answer?.type.kind === 'complex' ? complexTypeOf(model, answer.type) : undefined;
  const soap = op.soap;
  const input = soap?.input;
  const output = soap?.output;
  const request = op.request.type;
  const firstPart = input?.style === 'parts' ? input.type.fields[0] : undefined;
  const requestElement =
    input?.style === 'element' ? input.element! : firstPart ? { name: firstPart.xmlName, namespace: firstPart.namespace } : undefined;
  const suffix = (v: 'soap11' | 'soap12') => {
    const action = soap?.actions[v];
    return action && 'suffix' in action ? action.suffix : undefined;
  };
  const suffixes = [suffix('soap11'), suffix('soap12')].filter((s) => s !== undefined);
  const literal = (['soap11', 'soap12'] as const).flatMap((v) => {
    const action = soap?.actions[v];
    return action && 'literal' in action ? [`${v}: ${quote(action.literal)}`] : [];
  });
  const suffixText = suffixes[0] ?? '';
  // A version whose action is a suffix but not the other's: literal for that one too when they differ.
  const extraLiteral =
    suffixes.length === 2 && suffixes[0] !== suffixes[1] ? [`soap12: ${quote(model.authoredNamespace + suffixes[1])}`] : [];
  const soapActions = [...literal, ...extraLiteral];
  const headers = soap?.headers ?? [];
  const inHeaders = headers.filter((h) => h.direction === 'in');
  const outHeaders = headers.filter((h) => h.direction === 'out');
  const headerEntry = (h: (typeof headers)[number]) =>
    `{ name: ${quote(h.name)}, element: ${quote(h.element.name)}${h.element.namespace === model.authoredNamespace ? '' : `, namespace: ${quote(h.element.namespace)}`}, decode: (element) => ${decodeOf(model, h.type, 'element')} }`;
  const headersType = headers.length
    ? `{ in: { ${inHeaders.map((h) => `${h.name}?: ${h.type.tsType}`).join('; ')} }; out: { ${outHeaders.map((h) => `${h.name}?: ${h.type.tsType}`).join('; ')} } }`
    : undefined;
  const encodeHeaders = outHeaders.length
    ? `(headers, namespace) => ${outHeaders
        .map(
          (h) =>
            `(headers.${h.name} === undefined ? '' : ${openTag(model, h.element.name, h.element.namespace, hasAttributes(model, h.type) ? `headers.${h.name}.xmlAttributes()` : '')} + ${encodeExpression(model, h.type, `headers.${h.name}`)} + ${closeTag(model, h.element.name, h.element.namespace)})`,
        )
        .join(' + ')}`
    : undefined;

  let soapContent = "''";
  const result = op.result;
  if (output) {
    const type = output.type;
    const value = result === undefined ? `new ${type.name}()` : result.field ? `new ${type.name}({ ${result.field}: result })` : 'result';
    if (output.style === 'parts') soapContent = `${value}.toXml(namespace)`;
    else {
      const attributes = writesAttributes(type) ? `${value}.xmlAttributes()` : '';
      soapContent =
        model.prefixes || output.element!.namespace !== model.authoredNamespace
          ? `${openTag(model, output.element!.name, output.element!.namespace, attributes)} + ${value}.toXml() + ${closeTag(model, output.element!.name, output.element!.namespace)}`
          : `'<${output.element!.name} xmlns="' + namespace + '"${attributes ? `' + ${attributes} + '` : ''}>' + ${value}.toXml() + '</${output.element!.name}>'`;
    }
  }
  let requestContent = "''";
  if (input) {
    if (input.style === 'parts') requestContent = 'request.toXml(namespace)';
    else {
      const attributes = writesAttributes(request) ? 'request.xmlAttributes()' : '';
      requestContent =
        model.prefixes || input.element!.namespace !== model.authoredNamespace
          ? `${openTag(model, input.element!.name, input.element!.namespace, attributes)} + request.toXml() + ${closeTag(model, input.element!.name, input.element!.namespace)}`
          : `'<${input.element!.name} xmlns="' + namespace + '"${attributes ? `' + ${attributes} + '` : ''}>' + request.toXml() + '</${input.element!.name}>'`;
    }
  }
  const encodeInHeaders = inHeaders.length
    ? `(headers, namespace) => ${inHeaders
        .map(
          (h) =>
            `(headers.${h.name} === undefined ? '' : ${openTag(model, h.element.name, h.element.namespace, hasAttributes(model, h.type) ? `headers.${h.name}.xmlAttributes()` : '')} + ${encodeExpression(model, h.type, `headers.${h.name}`)} + ${closeTag(model, h.element.name, h.element.namespace)})`,
        )
        .join(' + ')}`
    : undefined;
  const fromFields =
    request.attributes.length === 0 &&
    !request.text &&
    request.fields.every((f) => (f.type.kind === 'primitive' || f.type.kind === 'enum') && f.maxOccurs === 1 && !f.nillable);
  const httpContent = answer ? encodeExpression(model, answer.type, 'result') : "''";
  const httpNamespace = answer ? namespaceExpression(model, answer.namespace) : 'namespace';
  return {
    name: op.name,
    void: op.void,
    documentation: doubleQuote(op.documentation),
    soapActionSuffix: suffixText,
    soapActions: soapActions.length ? `{ ${soapActions.join(', ')} }` : '',
    requestElement: requestElement?.name ?? '',
    requestNamespace: requestElement && requestElement.namespace !== model.authoredNamespace ? quote(requestElement.namespace) : '',
    requestParts: input?.style === 'parts',
    responseElement: output?.style === 'element' ? output.element!.name : (output?.type.fields[0]?.xmlName ?? ''),
    responseNamespace:
      output?.style === 'element' && output.element!.namespace !== model.authoredNamespace ? quote(output.element!.namespace) : '',
    responseParts: output?.style === 'parts',
    oneWay: op.oneWay,
    inHeaders: inHeaders.map(headerEntry),
    outHeaders: outHeaders.map(headerEntry),
    hasHeaders: headers.length > 0,
    headersType: headersType ?? '',
    encodeHeaders: encodeHeaders ?? '',
    requestClass: request.name,
    soapContent: joinLiterals(soapContent),
    requestContent: joinLiterals(requestContent),
    encodeInHeaders: encodeInHeaders ?? '',
    resultType: op.result?.tsType ?? 'void',
    httpOperation: op.http?.segment ?? op.name,
    httpXml: op.http?.xmlBody?.mediaType ?? '',
    // An XML body is answered with the SOAP answer's element; a one-way operation's answer is empty.
    httpXmlAnswer: op.http?.xmlBody !== undefined && output?.style === 'element',
    httpFields: op.http?.fields ?? [],
    // Requests with fields HTTP cannot carry are taken over SOAP only (ASMX leaves them out of its HTTP bindings too).
    fromFields,
    httpAnswer: answer !== undefined,
    httpResponseElement: answer?.element ?? '',
    httpOpen: answer
      ? model.prefixes || answer.namespace !== model.authoredNamespace
        ? `'<${tagOf(model, answer.element, answer.namespace)}'${answer.complex ? " + ' xmlns:xsd=\"' + XSD_NAMESPACE + '\" xmlns:xsi=\"' + XSI_NAMESPACE + '\"'" : ''} + xmlns(namespace)${complexAnswer && writesAttributes(complexAnswer) ? ' + result.xmlAttributes()' : ''} + '>'`
        : `'<${answer.element}${answer.complex ? ' xmlns:xsd="\' + XSD_NAMESPACE + \'" xmlns:xsi="\' + XSI_NAMESPACE + \'"' : ''} xmlns="' + ${httpNamespace} + '"${complexAnswer && writesAttributes(complexAnswer) ? "' + result.xmlAttributes() + '" : ''}>'`
      : '',
    httpNil: answer
      ? model.prefixes || answer.namespace !== model.authoredNamespace
        ? `'<${tagOf(model, answer.element, answer.namespace)} xmlns:xsi="' + XSI_NAMESPACE + '" xsi:nil="true"' + xmlns(namespace) + ' />'`
        : `'<${answer.element} xmlns:xsi="' + XSI_NAMESPACE + '" xsi:nil="true" xmlns="' + ${httpNamespace} + '" />'`
      : '',
    httpClose: answer ? closeTag(model, answer.element, answer.namespace) : '',
    // xsi:nil where the result has no value: absent, or nil.
    httpNillable: (answer?.nillable ?? false) && (op.result?.mayBeAbsent === true || /\| null\b/.test(op.result?.tsType ?? '')),
    httpNilTest: /\| null\b/.test(op.result?.tsType ?? '') ? 'result === undefined || result === null' : 'result === undefined',
    httpContent,
    sampleRequest: sampleCode(model, objectSample(model, request)),
    sampleResult: op.result ? sampleResult(model, op) : 'undefined',
    sampleHeaders: headers.length
      ? `() => ({ in: { ${inHeaders.map((h) => `${h.name}: ${sampleCode(model, sampleOf(model, h.type))}`).join(', ')} }, out: { ${outHeaders.map((h) => `${h.name}: ${sampleCode(model, sampleOf(model, h.type))}`).join(', ')} } })`
      : '',
    extra: [...inHeaders.map(headerEntry), ...outHeaders.map(headerEntry), encodeHeaders ?? '', encodeInHeaders ?? '', requestContent].join(
      '\n',
    ),
  };
}

/** A sample of the result: of its field's type, an array of as many as the field's minOccurs (one at least) when it repeats. */
function sampleResult(model: ContractModel, op: OperationModel): string {
  const result = op.result!;
  const field = resultFieldOf(op);
  // An element of anyType is kept whole (its value is the element): the answer's sample holds it.
  if (field?.type.kind === 'any' && op.soap?.output) return `${sampleCode(model, objectSample(model, op.soap.output.type))}.${field.name}`;
  const sample = sampleCode(model, sampleOf(model, result.type));
  return field && repeats(field) ? `[${Array(Math.max(1, field.minOccurs)).fill(sample).join(', ')}]` : sample;
}

function hasAttributes(model: ContractModel, ref: TypeRef): boolean {
  const type = ref.kind === 'complex' ? model.types.find((t) => t.name === ref.typeName) : undefined;
  return type !== undefined && writesAttributes(type);
}

/** The type's class has xmlAttributes(): declared attributes, or an anyAttribute's. */
function writesAttributes(type: ComplexTypeModel): boolean {
  return type.attributes.length > 0 || type.anyAttribute === true;
}

function decodeOf(model: ContractModel, type: TypeRef, element: string): string {
  if (type.kind === 'complex') return `${type.typeName}.fromXml(${element})`;
  if (type.kind === 'any') return `xmlFragmentOf(${element})`;
  return simpleDecode(model, type, `${element}.content`);
}

import { simpleParse } from './types';
function simpleDecode(model: ContractModel, type: TypeRef, text: string): string {
  return simpleParse(model, type, text);
}

export type { ComplexTypeModel };
