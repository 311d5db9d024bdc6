/**
 * Sample requests and responses of each operation over each variant, as the
 * help pages show them: built by the generated encoders themselves (with the
 * generated placeholder values), so a sample is exactly what goes over the
 * wire and cannot drift from the contract. XML is indented for reading.
 */
import type { Contract } from '../contract';
import type { OperationName, OperationsOf, Route, Variant } from '../definition';
import { SOAP11, SOAP12, soapEnvelope } from '../wire/soap-envelope';
import { HTTP_CONTENT_TYPE, JSON_CONTENT_TYPE } from '../wire/content-types';
import { XML_DECLARATION } from '../xml/xml-codec';
import { safeParseOptions, xml } from '../xml/xml-engine';

export interface Sample {
  variant: Variant | 'json';
  title: string;
  /** HTTP request head, a blank line, then the body (XML shown indented). */
  request: string;
  response: string;
  /** The XML bodies alone, for validation (none for JSON). */
  requestXml?: string;
  responseXml?: string;
}

export interface SampleSite {
  host: string;
  /** Path of the endpoint, e.g. `/Service.asmx`. */
  path: string;
}

export function samplesFor<Ops extends OperationsOf<Ops>, K extends OperationName<Ops>>(
  route: Route<Ops, K>,
  contract: Contract<Ops>,
  site: SampleSite,
): Sample[] {
  const request = route.sampleRequest();
  const result = route.sampleResult();
  const ns = contract.namespaceAttribute;
  const requestBody = `<${route.requestElement} xmlns="${ns}">${request.toXml()}</${route.requestElement}>`;
  const fields = route.httpFields.map((f) => `${f}=${fieldValue(request, f)}`).join('&');
  const soapAction = contract.soapAction(route.operation);

  const soap = (version: typeof SOAP11) => {
    const requestXml = soapEnvelope(version, requestBody);
    const responseXml = soapEnvelope(version, route.encodeSoapBody(result, ns));
    const contentType = version.contentType;
    const actionHeader = version === SOAP11 ? `\nSOAPAction: "${soapAction}"` : '';
    return {
      variant: version.variant,
      title: version === SOAP11 ? 'SOAP 1.1' : 'SOAP 1.2',
      requestXml,
      responseXml,
      request: `POST ${site.path} HTTP/1.1\nHost: ${site.host}\nContent-Type: ${contentType}\nContent-Length: length${actionHeader}\n\n${indent(requestXml)}`,
      response: `HTTP/1.1 200 OK\nContent-Type: ${contentType}\nContent-Length: length\n\n${indent(responseXml)}`,
    };
  };
  const httpResponseXml = route.encodeHttp(result, ns);
  const httpResponse = `HTTP/1.1 200 OK\nContent-Type: ${HTTP_CONTENT_TYPE}\nContent-Length: length\n\n${indent(httpResponseXml)}`;
  return [
    soap(SOAP11),
    soap(SOAP12),
    {
      variant: 'httpGet',
      title: 'HTTP GET',
      request: `GET ${site.path}/${route.httpOperation}?${fields} HTTP/1.1\nHost: ${site.host}`,
      response: httpResponse,
      responseXml: httpResponseXml,
    },
    {
      variant: 'httpPost',
      title: 'HTTP POST',
      request: `POST ${site.path}/${route.httpOperation} HTTP/1.1\nHost: ${site.host}\nContent-Type: application/x-www-form-urlencoded\nContent-Length: length\n\n${fields}`,
      response: httpResponse,
      responseXml: httpResponseXml,
    },
    jsonSample(contract, route, request, result, site),
  ];
}

/** The JSON variant for browser scripts, as jQuery's $.ajax and ASP.NET AJAX pages send it. */
function jsonSample<Ops extends OperationsOf<Ops>, K extends OperationName<Ops>>(
  contract: Contract<Ops>,
  route: Route<Ops, K>,
  request: Ops[K]['request'],
  result: Ops[K]['result'],
  site: SampleSite,
): Sample {
  const json = contract.definition.json[route.operation];
  const parameters = Object.fromEntries(json.parameters.map((name) => [name, Reflect.get(request, name) ?? null]));
  const head = (first: string) => `${first}\nContent-Type: ${JSON_CONTENT_TYPE}\nContent-Length: length\n\n`;
  return {
    variant: 'json',
    title: 'JSON',
    request: head(`POST ${site.path}/${route.httpOperation} HTTP/1.1\nHost: ${site.host}`) + JSON.stringify(parameters),
    response: head('HTTP/1.1 200 OK') + json.encodeAnswer(result),
  };
}

function fieldValue(request: object, field: string): string {
  const value: unknown = Reflect.get(request, field);
  return encodeURIComponent(String(value ?? ''));
}

/** Re-serialises XML we wrote, indented, with the declaration kept. */
function indent(text: string): string {
  const { XmlDocument, ParseOption } = xml();
  const doc = XmlDocument.fromString(text, { option: safeParseOptions() | ParseOption.XML_PARSE_NOBLANKS });
  try {
    return `${XML_DECLARATION}\n${doc.toString({ format: true, noDeclaration: true }).trimEnd()}`;
  } finally {
    doc.dispose();
  }
}
