import {
  type ComplexTypeModel,
  complexTypeOf,
  type ContractModel,
  type FieldModel,
  type HttpAnswerModel,
  type OperationModel,
  repeats,
  type ResultModel,
  resultFieldOf,
  type TypeRef,
} from '../model/model';
import { clientBase, GENERATED_FILE_NAMES, identifier } from '../model/names';
import { GENERATED, type Output, runtimeImport } from './header';
import { render } from './render';
import { doubleQuote, quote } from './ts';
import { joinLiterals, simpleParse, tagOf } from './types';
import { helpersUsed, valueCode } from './values';

/**
 * generated/client.ts: a typed client of the service, one method per
 * operation, over any of the four variants. Requests are encoded by the
 * generated classes' toXml(), answers decoded by their fromXml(); the wire
 * work (fetch, envelopes, faults) is src/runtime/client/exchange.ts.
 */
export function emitClient(model: ContractModel, output: Output = GENERATED): string {
  const base = clientBase(model.service);
  const jsonDecoders = new Map<string, string>();
  const methods = clientMethods(model.operations.map((op) => op.name));
  const operations = model.operations.map((op, i) => ({ ...clientOperation(model, op, jsonDecoders), method: methods[i] }));
  const decoders = [...jsonDecoders.values()];
  const code = [
    ...operations.flatMap((op) => [
      ...op.faults,
      op.httpDecode,
      op.jsonDecode,
      op.soapDecode,
      op.body,
      ...op.httpFields.map((f) => f.value),
      ...op.jsonParameters.map((p) => p.value),
    ]),
    ...decoders,
  ].join('\n');
  const classNames = [
    ...new Set([
      ...operations.flatMap((op) => [
        op.requestClass,
        ...(op.soapResponseClass ? [op.soapResponseClass] : []),
        ...op.httpClasses,
        ...op.faultClasses,
      ]),
      ...headerClasses(model),
      ...model.types.map((t) => t.name).filter((name) => code.includes(`new ${name}(`)),
      // The classes a JSON reader answers (an abstract type's reader, which constructs none, names its class).
      ...[...code.matchAll(/^function jsonTo[^(]+\(d: unknown\): (.+) \{$/gm)].flatMap((m) => m[1].split(' | ')),
    ]),
  ];
  const usesHeaders = operations.some((op) => op.hasHeaders);
  const runtimeNames = [
    'DEFAULT_TIMEOUT_MS',
    'exchange',
    ...(operations.some((op) => op.httpDecode.includes('isNil(')) ? ['isNil'] : []),
    'type ClientVariant',
    'type Decode',
    'type Fault',
    'type OperationSpec',
    'exchangeJson',
    ...['jsonBoolean', 'jsonText', 'jsonStringMembers'].filter((reader) => operations.some((op) => op.jsonDecode.includes(`${reader}(`))),
    ...(operations.some((op) => op.jsonDecode.includes('readJson(')) ? ['JsonShapeError'] : []),
    ...['DecodeError', 'formatXsdBoolean', 'parseXsdBoolean', 'xmlFragmentOf'].filter(
      (name) => code.includes(`${name}(`) || (name === 'DecodeError' && operations.some((op) => op.jsonDecode.includes('readJson('))),
    ),
    ...helpersUsed(code, 'xsd-values'),
    ...helpersUsed(code, 'xsd-json'),
    'escapeXmlAttribute',
    'type XsdValidator',
    'compileSchemaSet',
    ...(usesHeaders ? ['type HeaderRoute'] : []),
    // A result or default header kept as XML is typed XmlFragment.
    ...([...operations.map((op) => op.resultType), ...clientHeaders(model).map((h) => h.type)].some((type) => /\bXmlFragment\b/.test(type))
      ? ['type XmlFragment']
      : []),
  ];
  return render('client.ts.hbs', {
    header: output.header,
    runtimeImport: runtimeImport(runtimeNames, output.runtime),
    service: model.service,
    clientClass: clientClass(model, base),
    errorClass: errorClass(model, base),
    operations,
    clientHeaders: clientHeaders(model),
    usesHeaders,
    usesFaults: operations.some((op) => op.faults.length > 0),
    classNames: classNames.sort(),
    fieldInterfaces: [
      ...new Set([
        ...operations.map((op) => op.requestFields),
        ...model.operations.flatMap((op) =>
          (op.soap?.headers ?? []).flatMap((h) => (h.direction === 'in' && h.type.kind === 'enum' ? [h.type.typeName] : [])),
        ),
        // An enumeration that is a result is named by the operation's return type.
        ...model.operations.flatMap((op) => (op.result?.type.kind === 'enum' ? [op.result.type.typeName] : [])),
      ]),
    ].sort(),
    enumValues: model.enums.map((e) => `${e.name}Values`).filter((name) => code.includes(name)),
    usesXmlns: operations.some((op) => op.body.includes('xmlns(')),
    jsonDecoders: decoders,
    usesReadJson: operations.some((op) => op.jsonDecode.includes('readJson(')),
    // The path of the WSDL's address, where the service answers.
    endpointPath: doubleQuote(model.endpointPath),
    endpointPathText: model.endpointPath.replaceAll('*/', '*\\/'),
  });
}

/**
 * The header blocks a client sends by default (its `headers`, as .NET's
 * proxy has a `…Value` field per header): every operation's input headers
 * by name; a name two operations give different types, or one kept as XML, is left to each call.
 */
function clientHeaders(model: ContractModel): { name: string; type: string }[] {
  const types = new Map<string, Set<string>>();
  for (const op of model.operations)
    for (const h of op.soap?.headers ?? [])
      if (h.direction === 'in' && h.type.kind !== 'any') types.set(h.name, (types.get(h.name) ?? new Set()).add(h.type.tsType));
  return [...types]
    .filter(([, set]) => set.size === 1)
    .map(([name, set]) => ({ name, type: [...set][0] }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The complex types of the client's default header blocks, imported for its `…Headers` interface. */
function headerClasses(model: ContractModel): string[] {
  return model.operations.flatMap((op) =>
    (op.soap?.headers ?? []).flatMap((h) => (h.direction === 'in' && h.type.kind === 'complex' ? [h.type.typeName] : [])),
  );
}

/** `XError`, unless the contract has a type of that name (`NumberManagementError`): then `XCallError`. */
/** The contract's classes and enumerations, and their companions: the client's own classes take other names. */
function contractNames(model: ContractModel): Set<string> {
  return new Set(
    [...model.types.map((t) => t.name), ...model.enums.map((e) => e.name)].flatMap((name) => [name, `${name}Fields`, `${name}Values`]),
  );
}

/** `${base}Client` (with its `Options` and `Headers`), unless the contract has a class of one of those names. */
function clientClass(model: ContractModel, base: string): string {
  const taken = contractNames(model);
  const free = (name: string) => ![name, `${name}Options`, `${name}Headers`].some((n) => taken.has(n) || GENERATED_FILE_NAMES.has(n));
  let name = `${base}Client`;
  for (let i = 2; !free(name); i++) name = `${base}Client${i}`;
  return name;
}

/** `${base}Error`, unless the contract has a class of that name. */
function errorClass(model: ContractModel, base: string): string {
  const taken = contractNames(model);
  const free = (name: string) => !taken.has(name) && !GENERATED_FILE_NAMES.has(name) && name !== clientClass(model, base);
  let name = `${base}Error`;
  if (!free(name)) name = `${base}CallError`;
  for (let i = 2; !free(name); i++) name = `${base}CallError${i}`;
  return name;
}

/** The expression decoding a header's or fault's element, named `element`, into its type. */
function elementDecode(model: ContractModel, type: TypeRef): string {
  if (type.kind === 'complex') return `${type.typeName}.fromXml(element)`;
  if (type.kind === 'any') return 'xmlFragmentOf(element)';
  return simpleParse(model, type, 'element.content');
}

/** A request whose every member is text on the wire can go as HTTP fields and JSON parameters. */
function simpleRequest(type: ComplexTypeModel): boolean {
  return (
    type.attributes.length === 0 &&
    !type.text &&
    type.fields.every((f) => (f.type.kind === 'primitive' || f.type.kind === 'enum') && f.maxOccurs === 1 && !f.nillable)
  );
}

/** The SOAP body of a request, as TypeScript text over `message` and `ns` (the namespace, escaped). */
function requestBody(model: ContractModel, op: OperationModel): string {
  const input = op.soap?.input;
  if (!input) return "''";
  if (input.style === 'parts') return 'message.toXml(ns)';
  const { name, namespace } = input.element!;
  const attributes = input.type.attributes.length ? ' + message.xmlAttributes()' : '';
  if (!model.prefixes) return joinLiterals(`'<${name} xmlns="' + ns + '"'${attributes} + '>' + message.toXml() + '</${name}>'`);
  return joinLiterals(
    `'<${tagOf(model, name, namespace)}' + xmlns(ns)${attributes} + '>' + message.toXml() + '</${tagOf(model, name, namespace)}>'`,
  );
}

function clientOperation(model: ContractModel, op: OperationModel, jsonDecoders: Map<string, string>) {
  const answer = op.http?.answer;
  const fieldValue = (f: FieldModel) => {
    const text = f.type.kind === 'primitive' || f.type.kind === 'enum' ? valueCode(f.type).text(`message.${f.name}`) : 'undefined';
    return text === `message.${f.name}` ? text : `message.${f.name} === undefined ? undefined : ${text}`;
  };
  const soap = op.soap;
  const output = soap?.output;
  const action = (v: 'soap11' | 'soap12') => {
    const a = soap?.actions[v];
    return a === undefined ? undefined : 'suffix' in a ? model.authoredNamespace + a.suffix : a.literal;
  };
  const firstSuffix = (['soap11', 'soap12'] as const).map((v) => soap?.actions[v]).find((a) => a && 'suffix' in a);
  const literals = (['soap11', 'soap12'] as const).flatMap((v) => {
    const a = soap?.actions[v];
    return a && ('literal' in a || (firstSuffix && 'suffix' in firstSuffix && a.suffix !== firstSuffix.suffix))
      ? [`${v}: ${quote(action(v)!)}`]
      : [];
  });
  const responseNamespace =
    output?.style === 'element' && output.element!.namespace !== model.authoredNamespace ? output.element!.namespace : undefined;
  const outputClass = output?.type.name;
  // An optional member that repeats is absent from its class when empty; the result is then an empty array.
  const resultField = resultFieldOf(op);
  const soapDecode =
    !op.result || !outputClass
      ? 'undefined'
      : op.result.field
        ? `${outputClass}.fromXml(element).${op.result.field}${resultField && repeats(resultField) && resultField.minOccurs === 0 ? ' ?? []' : ''}`
        : `${outputClass}.fromXml(element)`;
  const faults = soap?.faults ?? [];
  const hasHeaders = (soap?.headers.length ?? 0) > 0;
  return {
    name: op.name,
    hasHeaders,
    hasInHeaders: hasHeaders && soap!.headers.some((h) => h.direction === 'in'),
    hasOutHeaders: hasHeaders && soap!.headers.some((h) => h.direction === 'out'),
    // A fault's element in the contract's namespace is in the run-time one, as the service writes it.
    faults: faults.map(
      (f) =>
        `{ element: ${quote(f.element.name)}${f.element.namespace === model.authoredNamespace ? '' : `, namespace: ${quote(f.element.namespace)}`}, decode: (element, fault) => new ${f.className}(${elementDecode(model, f.type)}, fault.faultString, faultKind(fault)) }`,
    ),
    faultNames: [...new Set(faults.map((f) => f.className))].join(', '),
    faultClasses: [...faults.map((f) => f.className), ...faults.flatMap((f) => (f.type.kind === 'complex' ? [f.type.typeName] : []))],
    soapActionSuffix: firstSuffix && 'suffix' in firstSuffix ? firstSuffix.suffix : '',
    soapActions: literals.length ? `{ ${literals.join(', ')} }` : '',
    requestElement: soap?.input.style === 'element' ? soap.input.element!.name : '',
    soapResponseElement: output?.style === 'element' ? output.element!.name : '',
    soapResponseNamespace: responseNamespace ? quote(responseNamespace) : '',
    soapResponseParts: output?.style === 'parts',
    oneWay: op.oneWay,
    soapCallable: soap !== undefined,
    body: requestBody(model, op),
    httpLocation: `/${op.http?.segment ?? op.name}`,
    httpResponseElement: answer?.element ?? '',
    httpXml: op.http?.xmlBody?.mediaType ?? '',
    requestClass: op.request.type.name,
    requestFields: op.request.type.fieldsInterface,
    httpFields: (op.http?.fields ?? []).map((name) => ({
      name,
      value: fieldValue(op.request.type.fields.find((f) => f.xmlName === name)!),
    })),
    jsonParameters: simpleRequest(op.request.type) ? op.request.type.fields.map((f) => ({ name: f.xmlName, value: fieldValue(f) })) : [],
    jsonCallable: simpleRequest(op.request.type),
    resultType: op.result?.tsType ?? 'void',
    soapDecode,
    soapResponseClass: outputClass,
    httpClasses: answer?.type.kind === 'complex' ? [answer.type.typeName] : [],
    // An operation the WSDL's HTTP bindings leave out (none declared, or a request HTTP fields cannot carry) is refused before it is sent.
    httpCallable: op.http !== undefined,
    // An XML body is answered with the SOAP answer's element.
    httpDecode: op.http?.xmlBody ? soapDecode : answer ? httpDecode(model, answer, op.result) : 'undefined',
    jsonDecode: op.result ? jsonDecode(model, op.result, jsonDecoders, resultField) : 'undefined',
  };
}

/** A type of optional strings only: read member by member, each absent when null. */
const stringFieldsOnly = (type: ComplexTypeModel) =>
  type.attributes.length === 0 &&
  type.fields.every(
    (f) => f.type.kind === 'primitive' && f.type.primitive === 'string' && f.maxOccurs === 1 && f.minOccurs === 0 && !f.nillable,
  );

/** The expression decoding `d` of a JSON answer (named `d`) into the result type; null is an absent result. */
function jsonDecode(model: ContractModel, result: ResultModel, decoders: Map<string, string>, field?: FieldModel): string {
  const type = result.type;
  let decode: string;
  // A member that repeats or may be nil is read as the member it is (an array; null kept as null).
  if (field && (repeats(field) || field.nillable)) decode = `readJson(() => ${jsonMember(model, field, 'd', decoders, true)})`;
  else if (type.kind === 'primitive' && type.primitive === 'boolean') decode = 'jsonBoolean(d)';
  else if (type.kind === 'primitive' && type.primitive === 'string') decode = 'jsonText(d)';
  else if (type.kind === 'complex' && stringFieldsOnly(complexTypeOf(model, type))) {
    const complex = complexTypeOf(model, type);
    const members = complex.fields.map((f) => quote(f.name)).join(', ');
    decode = `new ${complex.name}(jsonStringMembers(d, ${quote(`${model.service}.${complex.name}`)}, [${members}]))`;
  } else decode = `readJson(() => ${jsonRead(model, type, 'd', decoders)})`;
  return result.mayBeAbsent ? `d === null ? undefined : ${decode}` : decode;
}

/** Reads a non-null JSON value of a type; a complex type's reader is a function of client.ts, made once. */
function jsonRead(model: ContractModel, type: TypeRef, d: string, decoders: Map<string, string>): string {
  if (type.kind === 'any') return `fromJsonString(${d})`;
  if (type.kind === 'list') return `fromJsonArray(${d}, (x) => ${valueCode(type.item, model).fromJson('x')})`;
  if (type.kind !== 'complex') return valueCode(type, model).fromJson(d);
  const complex = complexTypeOf(model, type);
  if (complex.arrayWrapper)
    return `new ${complex.name}({ ${complex.fields[0].name}: ${jsonMember(model, complex.fields[0], d, decoders, true)} })`;
  const reader = `jsonTo${complex.name}`;
  if (!decoders.has(complex.name)) {
    decoders.set(complex.name, ''); // claimed first: the members may name this type again
    const members = [
      ...(complex.text ? [`value: ${jsonRead(model, complex.text, 'm.value', decoders)}`] : []),
      ...complex.fields.map((f) => `${f.name}: ${jsonMember(model, f, `m.${f.name}`, decoders, f.minOccurs > 0)}`),
      ...complex.attributes.map(
        (a) =>
          `${a.name}: ${a.required ? jsonRead(model, a.type, `m.${a.name}`, decoders) : `m.${a.name} == null ? undefined : ${jsonRead(model, a.type, `m.${a.name}`, decoders)}`}`,
      ),
    ];
    // A type with derived types is read as the one `__type` names (ASP.NET AJAX's JSON names it); an abstract one
    // is never constructed.
    const derived = complex.derived.map((name) => complexTypeOf(model, { kind: 'complex', typeName: name, tsType: name }));
    const cases = derived
      .filter((type) => !type.abstract)
      .map(
        (type) =>
          `    case ${quote(`${model.service}.${type.xmlName}`)}:\n      return ${jsonRead(model, { kind: 'complex', typeName: type.name, tsType: type.name }, 'd', decoders)};`,
      );
    const own = complex.abstract
      ? [
          `  throw new DecodeError(${quote(
            `expected one of ${derived
              .filter((type) => !type.abstract)
              .map((type) => `${model.service}.${type.xmlName}`)
              .join(', ')} (${model.service}.${complex.xmlName} is abstract)`,
          )});`,
        ]
      : [
          `  const m = fromJsonObject(d, ${quote(`${model.service}.${complex.xmlName}`)});`,
          `  return new ${complex.name}({ ${members.join(', ')} });`,
        ];
    decoders.set(
      complex.name,
      [
        `function ${reader}(d: unknown): ${complex.union ?? complex.name} {`,
        ...(cases.length ? ['  switch ((d as { __type?: unknown } | null | undefined)?.__type) {', ...cases, '  }'] : []),
        ...own,
        '}',
      ].join('\n'),
    );
  }
  return `${reader}(${d})`;
}

/** A member's JSON value: null is xsi:nil when nillable, else absent; an unbounded member is an array. */
function jsonMember(model: ContractModel, field: FieldModel, v: string, decoders: Map<string, string>, required: boolean): string {
  const read = (x: string) => jsonRead(model, field.type, x, decoders);
  const item = (x: string) => (field.nillable ? `${x} === null ? null : ${read(x)}` : read(x));
  const value = repeats(field) ? `fromJsonArray(${v}, (x) => ${item('x')})` : item(v);
  if (required) return value;
  return field.nillable && !repeats(field) ? `${v} === undefined ? undefined : ${value}` : `${v} == null ? undefined : ${value}`;
}

/** The expression decoding the root element of an HTTP GET/POST answer, named `element`; xsi:nil is an absent result. */
function httpDecode(model: ContractModel, answer: HttpAnswerModel, result: ResultModel | undefined): string {
  const type = answer.type;
  const decode =
    type.kind === 'complex'
      ? `${type.typeName}.fromXml(element)`
      : type.kind === 'any'
        ? 'xmlFragmentOf(element)'
        : simpleParse(model, type, 'element.content');
  // A nil answer is the result's no value: null where the result may be nil, absent where it may be absent; a result
  // that is always there is never written nil (ASMX's nillable answer of a value type), and is read as it is.
  const none = !result ? 'undefined' : /\| null\b/.test(result.tsType) ? 'null' : result.mayBeAbsent ? 'undefined' : undefined;
  return answer.nillable && none ? `isNil(element) ? ${none} : ${decode}` : decode;
}

/** The client's own members, and Object's: no operation's method takes their names (nor `then`: a client is no promise). */
const CLIENT_MEMBERS = new Set(
  (
    'constructor endpoint namespace variant timeoutMs fetch headers call callJson then catch finally toString toLocaleString ' +
    'valueOf hasOwnProperty isPrototypeOf propertyIsEnumerable __proto__ __defineGetter__ __defineSetter__ __lookupGetter__ __lookupSetter__'
  ).split(' '),
);

/** Each operation's method: its name as an identifier, lower camel case, once each (`Get` and `get`: `get`, `get2`). */
function clientMethods(operations: readonly string[]): string[] {
  const taken = new Set<string>();
  return operations.map((operation) => {
    const name = identifier(operation);
    const wanted = name[0].toLowerCase() + name.slice(1);
    const base = CLIENT_MEMBERS.has(wanted) ? `${wanted}_` : wanted;
    let method = base;
    for (let i = 2; taken.has(method); i++) method = `${base}${i}`;
    taken.add(method);
    return method;
  });
}
