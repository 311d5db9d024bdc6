import { ADDRESS_MARKER } from '../documents/wsdl';
import {
  type ComplexTypeModel,
  complexTypeOf,
  type ContractModel,
  type FieldModel,
  type OperationModel,
  type Primitive,
  type TypeRef,
} from '../model/model';
import { INTEGER_BOUNDS } from 'contract-runtime/xml';
import { segments } from './documents';
import { GENERATED, type Output } from './header';
import { renderFile } from './render';
import { doubleQuote, Imports } from './ts';

/**
 * generated/openapi.ts: the OpenAPI 3.1 description of the variants that are
 * not SOAP — HTTP GET, HTTP POST (a form) and JSON as an ASP.NET AJAX script
 * service speaks it — with holes for the namespace and the endpoint's address.
 */
export function emitOpenApi(model: ContractModel, output: Output = GENERATED): string {
  // Compact: generated/openapi.ts indents it when it fills the holes.
  const text = JSON.stringify(openApiDocument(model));
  const view = {
    header: output.header,
    paths: model.operations.map((op) => ({ name: op.name, path: doubleQuote(pathOf(op)) })),
    document: segments(text, model.authoredNamespace).map((s) =>
      'text' in s ? doubleQuote(s.text) : s.hole === 'namespace' ? 'ns' : 'location',
    ),
  };
  return renderFile('openapi.ts.hbs', view, new Imports(), output.runtime);
}

/** An operation's path below the endpoint: its HTTP location, which JSON calls too. */
const pathOf = (op: OperationModel) => `/${op.http?.segment ?? op.name}`;

type Schema = Record<string, unknown>;

/** The component of the JSON variant's error, beside the contract's types: a contract type of this name is refused. */
const JSON_ERROR = 'JsonError';
/** The XML form of a type is `xml.Name`, beside its JSON form `Name`: the two differ (dates, enums, arrays). */
const xmlName = (name: string) => `xml.${name}`;
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** The document as a plain object, written for the authored namespace and ADDRESS_MARKER as the server. */
export function openApiDocument(model: ContractModel): Schema {
  for (const name of [...model.types.map((t) => t.name), ...model.enums.map((e) => e.name)]) {
    if (name === JSON_ERROR) {
      throw new Error(`codegen: the type ${name} has the name of the OpenAPI description's JSON error; rename it`);
    }
  }
  const ns = model.authoredNamespace;
  const httpGet = model.ports.some((p) => p.variant === 'httpGet');
  const httpPost = model.ports.some((p) => p.variant === 'httpPost');
  const paths: Record<string, Schema> = {};
  for (const op of model.operations) {
    const path = pathOf(op);
    const item: Schema = {};
    if (httpGet && op.http) item.get = getOperation(model, op);
    item.post = postOperation(model, op, httpPost && op.http !== undefined);
    paths[path] = item;
  }
  const schemas: Record<string, Schema> = {};
  const used = typesUsed(model);
  for (const e of model.enums.filter((e) => used.has(e.name))) {
    schemas[e.name] = {
      type: 'integer',
      enum: e.values.map((_, i) => i),
      description: `${e.name} as JSON writes it: the value's position, from 0, in ${e.values.join(', ')}.`,
    };
    schemas[xmlName(e.name)] = { type: 'string', enum: e.values, xml: { name: e.name, namespace: ns } };
  }
  for (const t of model.types.filter((t) => used.has(t.name))) {
    schemas[t.name] = jsonComplex(model, t.name);
    schemas[xmlName(t.name)] = xmlComplex(model, t.name);
  }
  schemas[JSON_ERROR] = {
    type: 'object',
    description: 'The error of the JSON variant (header `jsonerror: true`), as ASP.NET AJAX script services write it.',
    required: ['Message', 'StackTrace', 'ExceptionType'],
    properties: {
      Message: { type: 'string', description: 'One sentence: never a stack trace, never a value from the request.' },
      StackTrace: { type: 'string', const: '' },
      ExceptionType: { type: 'string', description: 'The kind of error as a .NET exception type, e.g. System.ArgumentException.' },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: model.service,
      version: '1.0',
      description:
        `The HTTP GET, HTTP POST and JSON variants of ${model.service} (namespace ${ns}). ` +
        'The same operations over SOAP 1.1 and 1.2 are described by the WSDL (`?WSDL` at the endpoint). ' +
        'HTTP GET and POST answer XML (text/xml); a POST with Content-Type application/json is the JSON variant of ASP.NET AJAX script services and answers `{"d": result}`.',
    },
    servers: [{ url: ADDRESS_MARKER, description: 'This deployment’s endpoint.' }],
    paths,
    components: { schemas, responses: throttledResponses() },
  };
}

/**
 * The enumerations and complex types the variants' parameters and answers
 * reach; the SOAP request and response elements' own types are left out.
 */
function typesUsed(model: ContractModel): Set<string> {
  const used = new Set<string>();
  const visit = (type: TypeRef) => {
    if (type.kind === 'list') return visit(type.item);
    if (type.kind === 'primitive' || type.kind === 'any' || used.has(type.typeName)) return;
    used.add(type.typeName);
    if (type.kind !== 'complex') return;
    const complex = complexTypeOf(model, type);
    for (const f of complex.fields) visit(f.type);
    for (const a of complex.attributes) visit(a.type);
  };
  for (const op of model.operations) {
    for (const f of op.request.type.fields) visit(f.type);
    if (op.result) visit(op.result.type);
    // An XML body is the request's and the answer's element whole.
    if (op.http?.xmlBody) {
      visit(asRef(op.request.type));
      if (op.soap?.output) visit(asRef(op.soap.output.type));
    }
  }
  return used;
}

function getOperation(model: ContractModel, op: OperationModel): Schema {
  const http = op.http!;
  return {
    operationId: `${op.name}Get`,
    summary: `${op.name} over HTTP GET`,
    ...(op.documentation ? { description: op.documentation } : {}),
    parameters: http.fields.map((name) => {
      const field = requestField(op, name);
      return { name, in: 'query', required: field.minOccurs >= 1, schema: textForm(model, field.type) };
    }),
    responses: {
      '200': { description: `The answer, as XML.`, content: xmlAnswer(model, op) },
      ...errors(false),
    },
  };
}

const asRef = (type: ComplexTypeModel): TypeRef => ({ kind: 'complex', typeName: type.name, tsType: type.name });

function postOperation(model: ContractModel, op: OperationModel, post: boolean): Schema {
  const content: Schema = {};
  const xmlBody = post ? op.http?.xmlBody : undefined;
  const form = post && !xmlBody;
  // A request of no part is POSTed an empty body: nothing to describe but JSON's.
  const element = xmlBody ? op.soap!.input.element : undefined;
  if (xmlBody && element) {
    content[xmlBody.mediaType] = {
      schema: { ...xmlValue(asRef(op.request.type)), xml: { name: element.name, namespace: element.namespace } },
    };
  }
  if (form) {
    const fields = op.http!.fields.map((name) => requestField(op, name));
    content['application/x-www-form-urlencoded'] = {
      schema: {
        type: 'object',
        required: fields.filter((f) => f.minOccurs >= 1).map((f) => f.name),
        properties: Object.fromEntries(fields.map((f) => [f.name, textForm(model, f.type)])),
      },
    };
  }
  const members = op.request.type.fields;
  content['application/json'] = {
    schema: {
      type: 'object',
      required: members.filter((f) => f.minOccurs >= 1).map((f) => f.name),
      properties: Object.fromEntries(members.map((f) => [f.name, jsonParameter(model, f)])),
    },
  };
  const answers: Schema = {};
  if (form) Object.assign(answers, xmlAnswer(model, op));
  const output = op.soap?.output;
  if (xmlBody && output?.element) {
    answers[xmlBody.mediaType] = {
      schema: { ...xmlValue(asRef(output.type)), xml: { name: output.element.name, namespace: output.element.namespace } },
    };
  }
  answers['application/json'] = {
    schema: {
      type: 'object',
      required: ['d'],
      properties: { d: op.result ? jsonForm(op.result.type, op.result.mayBeAbsent) : { type: 'null' } },
    },
  };
  return {
    operationId: op.name,
    summary: xmlBody
      ? `${op.name} over HTTP POST (its XML element) or JSON`
      : form
        ? `${op.name} over HTTP POST (a form) or JSON`
        : `${op.name} over JSON`,
    ...(op.documentation ? { description: op.documentation } : {}),
    requestBody: { required: true, content },
    responses: {
      '200': {
        description: xmlBody
          ? `The answer: its XML element (${xmlBody.mediaType}) for an XML body, \`{"d": result}\` for JSON (Content-Type application/json).`
          : !form
            ? 'The answer, `{"d": result}`.'
            : op.result
              ? 'The answer: XML for a form, `{"d": result}` for JSON (Content-Type application/json).'
              : 'No answer: an empty body for a form, `{"d": null}` for JSON (Content-Type application/json).',
        content: answers,
      },
      ...errors(true),
    },
  };
}

function requestField(op: OperationModel, name: string): FieldModel {
  const field = op.request.type.fields.find((f) => f.xmlName === name);
  if (!field) throw new Error(`codegen: ${op.name}'s HTTP field ${name} is not a member of ${op.request.type.name}`);
  return field;
}

/** The XML answer of HTTP GET/POST: its root element in the namespace; nothing for a void operation. */
function xmlAnswer(model: ContractModel, op: OperationModel): Schema {
  const answer = op.http?.answer;
  if (!answer) return {};
  const schema = xmlValue(answer.type);
  const xml = { name: answer.element, namespace: model.authoredNamespace };
  const description = answer.nillable ? 'An absent result is the element with xsi:nil="true".' : undefined;
  return { 'text/xml': { schema: { ...schema, xml, ...(description ? { description } : {}) } } };
}

/**
 * The errors of the variants: one line of text/plain for HTTP GET and POST,
 * JsonError with `jsonerror: true` for JSON (docs/clients.md, Errors). 429 is
 * added at run time to the operations that throttle, which the contract
 * cannot tell.
 */
function errors(json: boolean): Record<string, Schema> {
  const answer = (description: string): Schema => errorResponse(description, json, {});
  return {
    '400': answer('A missing or invalid field (JSON: malformed JSON, not one object, an array or object for a field).'),
    '413': answer('The body is over the size limit.'),
    '415': answer('An unsupported media type or charset.'),
    '500': answer('An internal failure.'),
    '503': answer('The state store cannot be reached.'),
  };
}

/** An error answer: one line of text/plain, and for JSON a JsonError with the header `jsonerror: true`. */
function errorResponse(description: string, json: boolean, headers: Record<string, Schema>): Schema {
  const jsonError = { jsonerror: { description: '`true` on an error of the JSON variant.', schema: { type: 'string', const: 'true' } } };
  const all = { ...headers, ...(json ? jsonError : {}) };
  return {
    description,
    ...(Object.keys(all).length > 0 ? { headers: all } : {}),
    content: {
      'text/plain': { schema: { type: 'string' } },
      ...(json ? { 'application/json': { schema: ref(JSON_ERROR) } } : {}),
    },
  };
}

/**
 * The answers of a throttled caller, which generated/openapi.ts adds to the
 * operations whose handler throttles: `Throttled` for HTTP GET,
 * `ThrottledPost` for a form or JSON.
 */
function throttledResponses(): Record<string, Schema> {
  const description = 'Too many failed calls: refused until Retry-After seconds have passed.';
  const retryAfter = {
    'Retry-After': { description: 'Seconds until the call is taken again.', required: true, schema: { type: 'integer', minimum: 0 } },
  };
  return { Throttled: errorResponse(description, false, retryAfter), ThrottledPost: errorResponse(description, true, retryAfter) };
}

const FORMATS: Partial<Record<Primitive, string>> = { int: 'int32', long: 'int64', float: 'float', double: 'double' };
// The lexical forms src/runtime/xml/xsd-values.ts checks, as JSON Schema patterns.
const DECIMAL_PATTERN = '^[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)$';
const GUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const JSON_DATE_PATTERN = '^/Date\\(-?[0-9]+\\)/$';

function integer(primitive: Primitive): Schema {
  const bounds = Object.hasOwn(INTEGER_BOUNDS, primitive) ? INTEGER_BOUNDS[primitive as keyof typeof INTEGER_BOUNDS] : undefined;
  const schema: Schema = { type: 'integer' };
  if (FORMATS[primitive]) schema.format = FORMATS[primitive];
  if (bounds) Object.assign(schema, { minimum: bounds[0], maximum: bounds[1] });
  if (primitive === 'unsignedLong') Object.assign(schema, { minimum: 0, description: 'Up to 18446744073709551615.' });
  return schema;
}

/** A built-in type's value as XML text writes it: an element's text, a query or form field. */
function xmlPrimitive(primitive: Primitive): Schema {
  switch (primitive) {
    case 'string':
      return { type: 'string' };
    case 'boolean':
      return { type: 'boolean' };
    case 'float':
    case 'double':
      return {
        oneOf: [
          { type: 'number', format: FORMATS[primitive] },
          { type: 'string', enum: ['INF', '-INF', 'NaN'] },
        ],
      };
    case 'decimal':
      return { type: 'string', pattern: DECIMAL_PATTERN, description: 'xs:decimal: every digit kept.' };
    case 'dateTime':
      return { type: 'string', format: 'date-time' };
    case 'date':
    case 'time':
    case 'duration':
      return { type: 'string', format: primitive };
    case 'guid':
      return { type: 'string', format: 'uuid', pattern: GUID_PATTERN };
    case 'base64Binary':
      return { type: 'string', contentEncoding: 'base64' };
    case 'hexBinary':
      return { type: 'string', contentEncoding: 'base16' };
    case 'text':
      return { type: 'string' };
    case 'gYear':
    case 'gYearMonth':
    case 'gMonth':
    case 'gMonthDay':
    case 'gDay':
      return { type: 'string', description: `xs:${primitive}` };
    default:
      return integer(primitive);
  }
}

/** A built-in type's value as ASP.NET AJAX's JSON writes it (docs/codegen.md, the supported subset). */
function jsonPrimitive(primitive: Primitive): Schema {
  switch (primitive) {
    case 'float':
    case 'double':
      return { type: ['number', 'null'], format: FORMATS[primitive], description: 'null for INF, -INF and NaN.' };
    case 'decimal':
      return { type: 'number' };
    case 'dateTime':
      return {
        type: 'string',
        pattern: JSON_DATE_PATTERN,
        description: 'Milliseconds since 1970-01-01T00:00:00Z, as ASP.NET AJAX writes dates: "\\/Date(ms)\\/" in the JSON text.',
      };
    case 'base64Binary':
    case 'hexBinary':
      return { type: 'array', items: { type: 'integer', minimum: 0, maximum: 255 } };
    default:
      return xmlPrimitive(primitive);
  }
}

/** A simple field of an HTTP GET/POST request: its XML text. */
function textForm(model: ContractModel, type: TypeRef): Schema {
  if (type.kind === 'primitive' || type.kind === 'enum' || type.kind === 'list') return xmlValue(type);
  throw new Error(`codegen: ${model.service}: a complex type cannot be an HTTP field`);
}

/**
 * A member of a JSON request: a simple one is read as its text, as .NET binds
 * it (a number becomes its digits; a boolean `True`/`False`, which XML text
 * does not read, so booleans go as text); a complex one as JSON writes it.
 */
function jsonParameter(model: ContractModel, field: FieldModel): Schema {
  if (field.type.kind === 'complex' || field.type.kind === 'any' || field.type.kind === 'list') return jsonMember(field);
  const text =
    field.type.kind === 'primitive' && field.type.primitive === 'boolean'
      ? { type: 'string', enum: ['true', 'false', '1', '0'] }
      : textForm(model, field.type);
  return field.maxOccurs === 'unbounded' ? { type: 'array', items: text } : text;
}

function orNull(schema: Schema): Schema {
  if (schema.$ref || schema.oneOf) return { oneOf: [schema, { type: 'null' }] };
  const type = schema.type;
  if (Array.isArray(type)) return type.includes('null') ? schema : { ...schema, type: [...type, 'null'] };
  return { ...schema, type: [type, 'null'] };
}

/** A value as JSON writes it; `nullable` when it may be absent or nil (JSON writes both as null). */
function jsonForm(type: TypeRef, nullable: boolean): Schema {
  const schema =
    type.kind === 'primitive'
      ? jsonPrimitive(type.primitive)
      : type.kind === 'any'
        ? { type: 'string', description: 'XML, as it came.' }
        : type.kind === 'list'
          ? { type: 'array', items: jsonForm(type.item, false) }
          : ref(type.typeName);
  return nullable ? orNull(schema) : schema;
}

function jsonMember(field: FieldModel): Schema {
  const nullable = field.minOccurs === 0 || field.nillable;
  if (field.maxOccurs === 'unbounded') {
    const array = { type: 'array', items: jsonForm(field.type, field.nillable) };
    return field.minOccurs === 0 ? orNull(array) : array;
  }
  return jsonForm(field.type, nullable);
}

/** A complex type as JSON writes it: `__type` first, every member (null when absent), attributes after; an ArrayOfX an array. */
function jsonComplex(model: ContractModel, name: string): Schema {
  const type = complexTypeOf(model, { kind: 'complex', typeName: name, tsType: name });
  if (type.arrayWrapper) {
    const item = type.fields[0];
    return { type: 'array', items: jsonForm(item.type, item.nillable), description: `ASMX's ${name}: a JSON array.` };
  }
  const properties: Record<string, Schema> = {
    __type: { type: 'string', const: `${model.service}.${name}` },
  };
  for (const f of type.fields) properties[f.name] = jsonMember(f);
  for (const a of type.attributes) properties[a.name] = jsonForm(a.type, !a.required);
  return { type: 'object', required: Object.keys(properties), properties };
}

/** A complex type as its XML element holds it: child elements in sequence order, attributes. */
function xmlComplex(model: ContractModel, name: string): Schema {
  const type = complexTypeOf(model, { kind: 'complex', typeName: name, tsType: name });
  const ns = model.authoredNamespace;
  const properties: Record<string, Schema> = {};
  for (const f of type.fields) {
    let value: Schema = xmlValue(f.type);
    if (f.nillable) value = { ...orNull(value), description: 'xsi:nil="true" is null.' };
    properties[f.name] =
      f.maxOccurs === 'unbounded'
        ? { type: 'array', items: value, xml: { name: f.name, namespace: ns, wrapped: false } }
        : { ...value, xml: { name: f.name, namespace: ns } };
  }
  for (const a of type.attributes) {
    const value = xmlValue(a.type);
    properties[a.name] = { ...value, xml: { attribute: true } };
  }
  return {
    type: 'object',
    required: [
      ...type.fields.filter((f) => f.minOccurs >= 1).map((f) => f.name),
      ...type.attributes.filter((a) => a.required).map((a) => a.name),
    ],
    properties,
    xml: { name, namespace: ns },
  };
}

/** A value as its XML element (or attribute) holds it. */
function xmlValue(type: TypeRef): Schema {
  switch (type.kind) {
    case 'primitive':
      return xmlPrimitive(type.primitive);
    case 'list':
      return { type: 'string', description: 'A list: its items separated by spaces.' };
    case 'any':
      return { type: 'string', description: 'XML, as it came.' };
    default:
      return ref(xmlName(type.typeName));
  }
}
