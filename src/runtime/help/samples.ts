/**
 * Sample requests and responses of each operation over each variant, as the
 * help pages show them: built by the generated encoders themselves (with the
 * generated placeholder values), so a sample is exactly what goes over the
 * wire and cannot drift from the contract. XML is indented for reading.
 */
import { encodedAnswer, encodedCall, encodedHeaders } from '../wire/soap-encoding';
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
  const headers = route.sampleHeaders?.();
  const ns = contract.namespaceAttribute;
  const requestBody = route.encodeSoapRequest(request, ns);
  const requestHeaders = headers && route.encodeSoapRequestHeaders ? route.encodeSoapRequestHeaders(headers.in, ns) : undefined;
  const responseHeaders = headers && route.encodeSoapHeaders ? route.encodeSoapHeaders(headers.out, ns) : undefined;
  const fields = route.httpFields.map((f) => `${f}=${fieldValue(request, f)}`).join('&');
  const declared = contract.definition.variants;

  const soap = (version: typeof SOAP11): Sample => {
    const soapAction = contract.soapAction(route.operation, version.variant);
    // An rpc/encoded operation's samples are SOAP-encoded, as its calls and answers are.
    const encoding = route.soapEncoding;
    const call = encoding ? encodedCall(requestBody, encoding, version.envelopeNamespace) : requestBody;
    const answer = route.oneWay ? undefined : route.encodeSoapBody(result, ns);
    const answerBody = encoding && answer !== undefined ? encodedAnswer(answer, encoding, version.envelopeNamespace) : answer;
    const blocks = (text: string | undefined) =>
      text && encoding?.headers ? encodedHeaders(text, encoding, version.envelopeNamespace) : text || undefined;
    const requestXml = soapEnvelope(version, call, blocks(requestHeaders));
    const responseXml = answerBody === undefined ? undefined : soapEnvelope(version, answerBody, blocks(responseHeaders));
    const contentType = version.contentType;
    const actionHeader = version === SOAP11 ? `\nSOAPAction: "${soapAction}"` : '';
    return {
      variant: version.variant,
      title: version === SOAP11 ? 'SOAP 1.1' : 'SOAP 1.2',
      requestXml,
      ...(responseXml ? { responseXml } : {}),
      request: `POST ${site.path} HTTP/1.1\nHost: ${site.host}\nContent-Type: ${contentType}\nContent-Length: length${actionHeader}\n\n${indent(requestXml)}`,
      // A one-way operation is answered with no envelope.
      response: responseXml
        ? `HTTP/1.1 200 OK\nContent-Type: ${contentType}\nContent-Length: length\n\n${indent(responseXml)}`
        : 'HTTP/1.1 202 Accepted\nContent-Length: 0',
    };
  };
  const httpResponseXml = route.encodeHttp(result, ns);
  // A void operation's HTTP answer is empty.
  const httpResponse = `HTTP/1.1 200 OK\nContent-Type: ${route.httpXml ?? HTTP_CONTENT_TYPE}\nContent-Length: ${httpResponseXml === '' ? '0' : `length\n\n${indent(httpResponseXml)}`}`;
  // An XML body (Axis2's HTTP binding): the SOAP request's element POSTed as it is, and no HTTP GET.
  const xmlBody = route.httpXml ? XML_DECLARATION + requestBody : undefined;
  const all: Sample[] = [
    soap(SOAP11),
    soap(SOAP12),
    ...(xmlBody
      ? [
          {
            variant: 'httpPost' as const,
            title: 'HTTP POST',
            request: `POST ${site.path}/${route.httpOperation} HTTP/1.1\nHost: ${site.host}\nContent-Type: ${route.httpXml}\nContent-Length: length\n\n${indent(xmlBody)}`,
            requestXml: xmlBody,
            response: httpResponse,
            responseXml: httpResponseXml,
          },
        ]
      : []),
  ];
  if (!xmlBody) {
    all.push(
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
    );
  }
  // The variants the WSDL declares, and JSON.
  return [
    ...all.filter((sample) => declared.includes(sample.variant as (typeof declared)[number])),
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
    request: head(`POST ${site.path}/${route.httpOperation} HTTP/1.1\nHost: ${site.host}`) + sampleJson(parameters),
    response: head('HTTP/1.1 200 OK') + json.encodeAnswer(result),
  };
}

/** A sample's parameters as JSON: a bigint (xsd:long, xsd:integer) as its digits, a number as .NET writes it. */
function sampleJson(parameters: Record<string, unknown>): string {
  const marker = '\u0000bigint:';
  return JSON.stringify(parameters, (_key, value) => (typeof value === 'bigint' ? `${marker}${value}` : value)).replace(
    /"\\u0000bigint:(-?\d+)"/g,
    '$1',
  );
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
