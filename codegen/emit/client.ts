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
import { type EmitFile, emitFile } from './file';
import { GENERATED, type Output, TYPES } from './header';
import { renderFile } from './render';
import { doubleQuote, literal, quote } from './ts';
import { joinLiterals, simpleParse, tagOf, topLevelAttributes, typeText } from './types';
import { enumValues, valueCode } from './values';

/**
 * generated/client.ts: a typed client of the service, one method per
 * operation, over any of the four variants. Requests are encoded by the
 * generated classes' toXml(), answers decoded by their fromXml(); the wire
 * work (fetch, envelopes, faults) is src/runtime/client/exchange.ts.
 */
export function emitClient(model: ContractModel, output: Output = GENERATED): string {
  const file: Client = { ...emitFile(model), decoders: new Map(), readsJson: false };
  const { imports } = file;
  const base = clientBase(model.service);
  const methods = clientMethods(model.operations.map((op) => op.name));
  const operations = model.operations.map((op, i) => ({ ...clientOperation(file, op), method: methods[i] }));
  const headers = clientHeaders(file);
  const view = {
    header: output.header,
    service: model.service,
    clientClass: clientClass(model, base),
    errorClass: errorClass(model, base),
    operations,
    clientHeaders: headers,
    usesHeaders: operations.some((op) => op.hasHeaders || op.soapEncoding),
    // The request body is encoded inside the exchange, which may send its binary values as MTOM attachments.
    usesMtom: operations.some((op) => op.mtom !== ''),
    usesFaults: operations.some((op) => op.faults.length > 0),
    ...typesImport(file),
    usesXmlns: imports.usesLocal(TYPES, 'xmlns'),
    jsonDecoders: [...file.decoders.values()],
    usesReadJson: file.readsJson,
    // The path of the WSDL's address, where the service answers.
    endpointPath: doubleQuote(model.endpointPath),
    endpointPathText: model.endpointPath.replaceAll('*/', '*\\/'),
  };
  return renderFile('client.ts.hbs', view, imports, output.runtime);
}

/** client.ts as it is written: the file, of a contract, with its JSON readers (a function a complex type) made so far. */
interface Client extends EmitFile<ContractModel> {
  readonly decoders: Map<string, string>;
  /** Whether a reader of a JSON answer is wrapped in readJson() (which the template then declares). */
  readsJson: boolean;
}

/**
 * What client.ts imports of ./types, as the template lists it: the classes (and declared faults' classes) it names,
 * the enumerations' values, then (as types) the fields interfaces and the enumerations.
 */
function typesImport({ model, imports }: Client): { classNames: string[]; enumValues: string[]; fieldInterfaces: string[] } {
  const used = imports.localOf(TYPES);
  const isValues = (name: string) => model.enums.some((e) => enumValues(e.name) === name);
  const isType = (name: string) => model.enums.some((e) => e.name === name) || model.types.some((t) => t.fieldsInterface === name);
  return {
    classNames: used.filter((name) => name !== 'xmlns' && !isValues(name) && !isType(name)).sort(),
    enumValues: model.enums.map((e) => enumValues(e.name)).filter((name) => used.includes(name)),
    fieldInterfaces: used.filter(isType).sort(),
  };
}

/**
 * The header blocks a client sends by default (its `headers`, as .NET's
 * proxy has a `…Value` field per header): every operation's input headers
 * by name; a name two operations give different types, or one kept as XML, is left to each call.
 */
function clientHeaders(file: Client): { name: string; type: string }[] {
  const types = new Map<string, Map<string, TypeRef>>();
  for (const op of file.model.operations)
    for (const h of op.soap?.headers ?? [])
      if (h.direction === 'in' && h.type.kind !== 'any') types.set(h.name, (types.get(h.name) ?? new Map()).set(h.type.tsType, h.type));
  return [...types]
    .filter(([, byType]) => byType.size === 1)
    .map(([name, byType]) => ({ name, type: typeText(file, [...byType.values()][0]) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

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

/** `${base}Error`, unless the contract has a class of that name (`NumberManagementError`): then `${base}CallError`. */
function errorClass(model: ContractModel, base: string): string {
  const taken = contractNames(model);
  const free = (name: string) => !taken.has(name) && !GENERATED_FILE_NAMES.has(name) && name !== clientClass(model, base);
  let name = `${base}Error`;
  if (!free(name)) name = `${base}CallError`;
  for (let i = 2; !free(name); i++) name = `${base}CallError${i}`;
  return name;
}

/** The expression decoding a header's or fault's element, named `element`, into its type. */
function elementDecode(file: Client, type: TypeRef): string {
  if (type.kind === 'complex') return `${file.imports.local(TYPES, type.typeName)}.fromXml(element)`;
  if (type.kind === 'any') return `${file.imports.runtime('xmlFragmentOf')}(element)`;
  return simpleParse(file, type, 'element.content');
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
function requestBody({ model, imports }: Client, op: OperationModel): string {
  const input = op.soap?.input;
  if (!input) return "''";
  if (input.style === 'parts') return 'message.toXml(ns)';
  const { name, namespace } = input.element!;
  const written = topLevelAttributes({ model, imports }, input.type, 'message');
  const attributes = written ? ` + ${written}` : '';
  if (!model.prefixes) return joinLiterals(`'<${name} xmlns="' + ns + '"'${attributes} + '>' + message.toXml() + '</${name}>'`);
  return joinLiterals(
    `'<${tagOf(model, name, namespace)}' + ${imports.local(TYPES, 'xmlns')}(ns)${attributes} + '>' + message.toXml() + '</${tagOf(model, name, namespace)}>'`,
  );
}

/** The SOAP versions whose policy asks for MTOM (wsoma:OptimizedMimeSerialization); '' for none. */
function mtomOf(op: OperationModel): string {
  const variants = (['soap11', 'soap12'] as const).filter((v) => op.policies?.[v]?.mtom !== undefined);
  return variants.length === 0 ? '' : literal(variants, 4, '    mtom: '.length);
}

/** The SOAP versions whose policy asks for WS-Addressing, with the input action the client sends ('' for none). */
function addressingOf(op: OperationModel): string {
  const variants = (['soap11', 'soap12'] as const).filter((v) => op.policies?.[v]?.addressing !== undefined);
  if (!op.addressingActions || variants.length === 0) return '';
  return literal({ action: op.addressingActions.input, variants }, 4, '    addressing: '.length);
}

function clientOperation(file: Client, op: OperationModel) {
  const { model, imports } = file;
  const answer = op.http?.answer;
  const fieldValue = (f: FieldModel) => {
    const text = f.type.kind === 'primitive' || f.type.kind === 'enum' ? valueCode(imports, f.type).text(`message.${f.name}`) : 'undefined';
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
  const outputClass = () => imports.local(TYPES, output!.type.name);
  // An optional member that repeats is absent from its class when empty; the result is then an empty array.
  const resultField = resultFieldOf(op);
  const soapDecode =
    !op.result || !output
      ? 'undefined'
      : op.result.field
        ? `${outputClass()}.fromXml(element).${op.result.field}${resultField && repeats(resultField) && resultField.minOccurs === 0 ? ' ?? []' : ''}`
        : `${outputClass()}.fromXml(element)`;
  const faults = soap?.faults ?? [];
  const polymorphic = op.request.type.derived.length > 0;
  const hasHeaders = (soap?.headers.length ?? 0) > 0;
  return {
    name: op.name,
    hasHeaders,
    // A fault's element in the contract's namespace is in the run-time one, as the service writes it.
    faults: faults.map(
      (f) =>
        `{ element: ${quote(f.element.name)}${f.element.namespace === model.authoredNamespace ? '' : `, namespace: ${quote(f.element.namespace)}`}, decode: (element, fault) => new ${imports.local(TYPES, f.className)}(${elementDecode(file, f.type)}, fault.faultString, faultKind(fault)) }`,
    ),
    faultNames: [...new Set(faults.map((f) => f.className))].join(', '),
    soapActionSuffix: firstSuffix && 'suffix' in firstSuffix ? firstSuffix.suffix : '',
    soapActions: literals.length ? `{ ${literals.join(', ')} }` : '',
    addressing: addressingOf(op),
    mtom: mtomOf(op),
    soapEncoding: op.soap?.encoding !== undefined,
    requestElement: soap?.input.style === 'element' ? soap.input.element!.name : '',
    soapResponseElement: output?.style === 'element' ? output.element!.name : '',
    soapResponseNamespace: responseNamespace !== undefined ? quote(responseNamespace) : '',
    soapResponseParts: output?.style === 'parts',
    oneWay: op.oneWay,
    soapCallable: soap !== undefined,
    body: requestBody(file, op),
    httpLocation: `/${op.http?.segment ?? op.name}`,
    httpResponseElement: answer?.element ?? '',
    httpXml: op.http?.xmlBody?.mediaType ?? '',
    // A request of a type others derive from is one of their classes, as written (its xsi:type says which).
    requestMessage: polymorphic ? 'request' : `new ${imports.local(TYPES, op.request.type.name)}(request)`,
    requestFields: polymorphic
      ? (op.request.type.union ?? op.request.type.name)
          .split(' | ')
          .map((name) => imports.local(TYPES, name))
          .join(' | ')
      : imports.local(TYPES, op.request.type.fieldsInterface, 'type'),
    httpFields: (op.http?.fields ?? []).map((name) => ({
      name,
      value: fieldValue(op.request.type.fields.find((f) => f.xmlName === name)!),
    })),
    jsonParameters: simpleRequest(op.request.type) ? op.request.type.fields.map((f) => ({ name: f.xmlName, value: fieldValue(f) })) : [],
    jsonCallable: simpleRequest(op.request.type),
    resultType: op.result ? typeText(file, op.result.type, op.result.tsType) : 'void',
    soapDecode,
    // An operation the WSDL's HTTP bindings leave out (none declared, or a request HTTP fields cannot carry) is refused before it is sent.
    httpCallable: op.http !== undefined,
    // An XML body is answered with the SOAP answer's element.
    httpDecode: op.http?.xmlBody ? soapDecode : answer ? httpDecode(file, answer, op.result) : 'undefined',
    jsonDecode: op.result ? jsonDecode(file, op.result, resultField) : 'undefined',
  };
}

/** A type of optional strings only (no text of its own): read member by member, each absent when null. */
const stringFieldsOnly = (type: ComplexTypeModel) =>
  type.attributes.length === 0 &&
  type.text === undefined &&
  !type.mixed &&
  type.fields.every(
    (f) => f.type.kind === 'primitive' && f.type.primitive === 'string' && f.maxOccurs === 1 && f.minOccurs === 0 && !f.nillable,
  );

/** The expression decoding `d` of a JSON answer (named `d`) into the result type; null is an absent result. */
function jsonDecode(file: Client, result: ResultModel, field?: FieldModel): string {
  const { model, imports } = file;
  const type = result.type;
  let decode: string;
  // A member that repeats or may be nil is read as the member it is (an array; null kept as null).
  if (field && (repeats(field) || field.nillable)) decode = readJson(file, jsonMember(file, field, 'd', true));
  else if (type.kind === 'primitive' && type.primitive === 'boolean') decode = `${imports.runtime('jsonBoolean')}(d)`;
  else if (type.kind === 'primitive' && type.primitive === 'string') decode = `${imports.runtime('jsonText')}(d)`;
  else if (type.kind === 'complex' && stringFieldsOnly(complexTypeOf(model, type))) {
    const complex = complexTypeOf(model, type);
    const members = complex.fields.map((f) => quote(f.name)).join(', ');
    decode = `new ${imports.local(TYPES, complex.name)}(${imports.runtime('jsonStringMembers')}(d, ${quote(`${model.service}.${complex.name}`)}, [${members}]))`;
  } else decode = readJson(file, jsonRead(file, type, 'd'));
  return result.mayBeAbsent ? `d === null ? undefined : ${decode}` : decode;
}

/** A reading of a JSON answer inside readJson(), which makes a misfit the exchange's shape error. */
function readJson(file: Client, read: string): string {
  file.readsJson = true;
  return `readJson(() => ${read})`;
}

/** Reads a non-null JSON value of a type; a complex type's reader is a function of client.ts, made once. */
function jsonRead(file: Client, type: TypeRef, d: string): string {
  const { model, imports, decoders } = file;
  if (type.kind === 'any') return `${imports.runtime('fromJsonString')}(${d})`;
  if (type.kind === 'list')
    return `${imports.runtime('fromJsonArray')}(${d}, (x) => ${valueCode(imports, type.item, model).fromJson('x')})`;
  if (type.kind !== 'complex') return valueCode(imports, type, model).fromJson(d);
  const complex = complexTypeOf(model, type);
  if (complex.arrayWrapper)
    return `new ${imports.local(TYPES, complex.name)}({ ${complex.fields[0].name}: ${jsonMember(file, complex.fields[0], d, true)} })`;
  const reader = `jsonTo${complex.name}`;
  if (!decoders.has(complex.name)) {
    decoders.set(complex.name, ''); // claimed first: the members may name this type again
    const members = [
      ...(complex.text ? [`value: ${jsonRead(file, complex.text, 'm.value')}`] : []),
      ...complex.fields.map((f) => `${f.name}: ${jsonMember(file, f, `m.${f.name}`, f.minOccurs > 0)}`),
      ...complex.attributes.map(
        (a) =>
          `${a.name}: ${a.required ? jsonRead(file, a.type, `m.${a.name}`) : `m.${a.name} == null ? undefined : ${jsonRead(file, a.type, `m.${a.name}`)}`}`,
      ),
    ];
    // A type with derived types is read as the one `__type` names (ASP.NET AJAX's JSON names it); an abstract one
    // is never constructed.
    const derived = complex.derived.map((name) => complexTypeOf(model, { kind: 'complex', typeName: name, tsType: name }));
    const cases = derived
      .filter((type) => !type.abstract)
      .map(
        (type) =>
          `    case ${quote(`${model.service}.${type.xmlName}`)}:\n      return ${jsonRead(file, { kind: 'complex', typeName: type.name, tsType: type.name }, 'd')};`,
      );
    const own = complex.abstract
      ? [
          `  throw new ${imports.runtime('DecodeError')}(${quote(
            `expected one of ${derived
              .filter((type) => !type.abstract)
              .map((type) => `${model.service}.${type.xmlName}`)
              .join(', ')} (${model.service}.${complex.xmlName} is abstract)`,
          )});`,
        ]
      : [
          `  const m = ${imports.runtime('fromJsonObject')}(d, ${quote(`${model.service}.${complex.xmlName}`)});`,
          `  return new ${imports.local(TYPES, complex.name)}({ ${members.join(', ')} });`,
        ];
    decoders.set(
      complex.name,
      [
        `function ${reader}(d: unknown): ${typeText(file, { kind: 'complex', typeName: complex.name, tsType: complex.union ?? complex.name })} {`,
        ...(cases.length ? ['  switch ((d as { __type?: unknown } | null | undefined)?.__type) {', ...cases, '  }'] : []),
        ...own,
        '}',
      ].join('\n'),
    );
  }
  return `${reader}(${d})`;
}

/** A member's JSON value: null is xsi:nil when nillable, else absent; an unbounded member is an array. */
function jsonMember(file: Client, field: FieldModel, v: string, required: boolean): string {
  const read = (x: string) => jsonRead(file, field.type, x);
  const item = (x: string) => (field.nillable ? `${x} === null ? null : ${read(x)}` : read(x));
  const value = repeats(field) ? `${file.imports.runtime('fromJsonArray')}(${v}, (x) => ${item('x')})` : item(v);
  if (required) return value;
  return field.nillable && !repeats(field) ? `${v} === undefined ? undefined : ${value}` : `${v} == null ? undefined : ${value}`;
}

/** The expression decoding the root element of an HTTP GET/POST answer, named `element`; xsi:nil is an absent result. */
function httpDecode(file: Client, answer: HttpAnswerModel, result: ResultModel | undefined): string {
  const decode = elementDecode(file, answer.type);
  // A nil answer is the result's no value: null where the result may be nil, absent where it may be absent; a result
  // that is always there is never written nil (ASMX's nillable answer of a value type), and is read as it is.
  const none = !result ? 'undefined' : /\| null\b/.test(result.tsType) ? 'null' : result.mayBeAbsent ? 'undefined' : undefined;
  return answer.nillable && none ? `${file.imports.runtime('isNil')}(element) ? ${none} : ${decode}` : decode;
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
