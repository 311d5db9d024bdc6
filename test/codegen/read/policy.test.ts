/**
 * codegen/read/wsdl/policy.ts, a construct a test: where a WSDL attaches WS-Policy (service, port, binding, bound
 * operation, its input and output), how (inline, wsp:PolicyReference to a wsu:Id, an xml:id or a Name,
 * wsp:PolicyURIs, wsp:PolicyAttachment), WS-Policy 1.2 and 1.5, wsp:ExactlyOne and wsp:All normalised,
 * wsp:Optional, wsaw:UsingAddressing as an element (wsdl:required), and the WS-Addressing actions of an operation.
 */
import test from 'ava';
import { parseXmlText } from '../../../codegen/read/documents';
import { type PolicyFacts, readWsdl, type WsdlFacts } from '../../../codegen/read/wsdl';
import { loadXmlEngine } from '../../../src/runtime/xml/xml-engine';

const WSP12 = 'http://schemas.xmlsoap.org/ws/2004/09/policy';
const WSP15 = 'http://www.w3.org/ns/ws-policy';
const WSAM = 'http://www.w3.org/2007/05/addressing/metadata';

test.before(async () => {
  await loadXmlEngine();
});

interface Parts {
  namespace?: string;
  top?: string;
  service?: string;
  port?: string;
  binding?: string;
  bindingAttributes?: string;
  operation?: string;
  input?: string;
  output?: string;
  portTypeInput?: string;
  portTypeOutput?: string;
  inputName?: string;
  oneWay?: boolean;
  fault?: string;
}

/** A WSDL of one operation Echo over one SOAP 1.1 port, with markup where each part says. */
function wsdl(parts: Parts = {}): string {
  const tns = parts.namespace ?? 'http://echo.example.org/';
  const fault = parts.fault !== undefined;
  return `<?xml version="1.0"?>
<wsdl:definitions targetNamespace="${tns}" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:tns="${tns}" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:wsp="${WSP12}" xmlns:wsp15="${WSP15}" xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd" xmlns:wsam="${WSAM}" xmlns:wsaw="http://www.w3.org/2006/05/addressing/wsdl" xmlns:wsa="http://schemas.xmlsoap.org/ws/2004/08/addressing" xmlns:x="urn:x">
  ${parts.top ?? ''}
  <wsdl:types><xsd:schema targetNamespace="${tns}" elementFormDefault="qualified">
    <xsd:element name="Echo"><xsd:complexType><xsd:sequence/></xsd:complexType></xsd:element>
    <xsd:element name="EchoResponse"><xsd:complexType><xsd:sequence/></xsd:complexType></xsd:element>
    <xsd:element name="Oops"><xsd:complexType><xsd:sequence/></xsd:complexType></xsd:element>
  </xsd:schema></wsdl:types>
  <wsdl:message name="EchoIn"><wsdl:part name="p" element="tns:Echo"/></wsdl:message>
  <wsdl:message name="EchoOut"><wsdl:part name="p" element="tns:EchoResponse"/></wsdl:message>
  <wsdl:message name="OopsFault"><wsdl:part name="p" element="tns:Oops"/></wsdl:message>
  <wsdl:portType name="EchoPort">
    <wsdl:operation name="Echo">
      <wsdl:input message="tns:EchoIn" ${parts.inputName ? `name="${parts.inputName}"` : ''} ${parts.portTypeInput ?? ''}/>
      ${parts.oneWay ? '' : `<wsdl:output message="tns:EchoOut" ${parts.portTypeOutput ?? ''}/>`}
      ${fault ? `<wsdl:fault name="Oops" message="tns:OopsFault" ${parts.fault}/>` : ''}
    </wsdl:operation>
  </wsdl:portType>
  <wsdl:binding name="EchoSoap" type="tns:EchoPort" ${parts.bindingAttributes ?? ''}>
    ${parts.binding ?? ''}
    <soap:binding transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="Echo">
      ${parts.operation ?? ''}
      <soap:operation soapAction="urn:Echo"/>
      <wsdl:input>${parts.input ?? ''}<soap:body use="literal"/></wsdl:input>
      ${parts.oneWay ? '' : `<wsdl:output>${parts.output ?? ''}<soap:body use="literal"/></wsdl:output>`}
      ${fault ? '<wsdl:fault name="Oops"><soap:fault name="Oops" use="literal"/></wsdl:fault>' : ''}
    </wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="EchoService">
    ${parts.service ?? ''}
    <wsdl:port name="EchoSoap" binding="tns:EchoSoap">${parts.port ?? ''}<soap:address location="http://localhost/echo"/></wsdl:port>
  </wsdl:service>
</wsdl:definitions>`;
}

const read = (parts: Parts): WsdlFacts => readWsdl([parseXmlText(wsdl(parts), 'echo.wsdl')]);
const policiesOf = (parts: Parts) => read(parts).operations[0].policies?.soap11;
/** The names of each alternative's assertions, `!` before an optional one. */
const names = (policy: PolicyFacts) => policy.map((alternative) => alternative.map((a) => `${a.optional ? '!' : ''}${a.name}`));

const ASSERTION = '<x:A/>';

test('a contract without WS-Policy has no policies and no actions in its facts', (t) => {
  const op = read({}).operations[0];
  t.is(op.policies, undefined);
  t.is(op.addressingActions, undefined);
});

test('an inline wsp:Policy in the binding (WS-Policy 1.2) is the endpoint policy of each operation', (t) => {
  const policies = policiesOf({ binding: `<wsp:Policy>${ASSERTION}</wsp:Policy>` })!;
  t.is(policies.binding, 'EchoSoap');
  t.deepEqual(policies.endpoint.map(names), [[['A']]]);
  t.deepEqual([policies.operation, policies.input, policies.output], [[], [], []]);
});

test('a wsp:PolicyReference names a policy by wsu:Id, by xml:id (WS-Policy 1.5) or by its Name', (t) => {
  const byWsu = policiesOf({ top: `<wsp:Policy wsu:Id="p1">${ASSERTION}</wsp:Policy>`, binding: '<wsp:PolicyReference URI="#p1"/>' })!;
  t.deepEqual(byWsu.endpoint.map(names), [[['A']]]);
  const byXmlId = policiesOf({
    top: `<wsp15:Policy xml:id="p2"><x:B/></wsp15:Policy>`,
    binding: '<wsp15:PolicyReference URI="#p2"/>',
  })!;
  t.deepEqual(byXmlId.endpoint.map(names), [[['B']]]);
  const byName = policiesOf({
    top: `<wsp15:Policy Name="http://echo.example.org/policies/c"><x:C/></wsp15:Policy>`,
    binding: '<wsp15:PolicyReference URI="http://echo.example.org/policies/c"/>',
  })!;
  t.deepEqual(byName.endpoint.map(names), [[['C']]]);
});

test('wsp:PolicyURIs names policies by an attribute of the element', (t) => {
  const policies = policiesOf({
    top: `<wsp:Policy wsu:Id="a">${ASSERTION}</wsp:Policy><wsp:Policy wsu:Id="b"><x:B/></wsp:Policy>`,
    bindingAttributes: 'wsp:PolicyURIs="#a #b"',
  })!;
  t.deepEqual(policies.endpoint.map(names), [[['A']], [['B']]]);
});

test('a wsp:PolicyAttachment applies to the WSDL 1.1 element its wsp:AppliesTo identifies', (t) => {
  const attachment = (target: string, assertion: string) =>
    `<wsp:PolicyAttachment><wsp:AppliesTo><wsp:URI>http://echo.example.org/#wsdl11.${target}</wsp:URI></wsp:AppliesTo><wsp:Policy>${assertion}</wsp:Policy></wsp:PolicyAttachment>`;
  const policies = policiesOf({
    top: attachment('binding(EchoSoap)', '<x:A/>') + attachment('bindingOperation.input(EchoSoap/Echo)', '<x:I/>'),
  })!;
  t.deepEqual(policies.endpoint.map(names), [[['A']]]);
  t.deepEqual(policies.input.map(names), [[['I']]]);
});

test('a wsp:PolicyAttachment applying to something else, and a reference to a policy no document holds, are named as unread', (t) => {
  const facts = read({
    top: '<wsp:PolicyAttachment><wsp:AppliesTo><x:EndpointReference/></wsp:AppliesTo><wsp:Policy><x:A/></wsp:Policy></wsp:PolicyAttachment>',
    binding: '<wsp:PolicyReference URI="http://elsewhere.example.org/policy"/>',
  });
  t.deepEqual(facts.unreadPolicies, [
    'wsp:PolicyAttachment (its wsp:AppliesTo names no WSDL 1.1 element by its identifier)',
    'wsp:PolicyReference URI="http://elsewhere.example.org/policy" (no document of the contract holds it)',
  ]);
});

test('a policy that references itself is read once, and said', (t) => {
  const facts = read({
    top: '<wsp:Policy wsu:Id="loop"><x:A/><wsp:PolicyReference URI="#loop"/></wsp:Policy>',
    binding: '<wsp:PolicyReference URI="#loop"/>',
  });
  t.deepEqual(facts.operations[0].policies?.soap11?.endpoint.map(names), [[['A']]]);
  t.deepEqual(facts.unreadPolicies, ['wsp:PolicyReference URI="#loop" (the policy references itself)']);
});

test('wsam:Action attributes alone (no policy) are no policy: the facts hold none', (t) => {
  t.is(read({ portTypeInput: 'wsam:Action="urn:in"' }).operations[0].policies, undefined);
});

test('policies attach to the service, the port, the binding, the bound operation, its input and its output', (t) => {
  const policies = policiesOf({
    service: '<wsp:Policy><x:S/></wsp:Policy>',
    port: '<wsp:Policy><x:P/></wsp:Policy>',
    binding: '<wsp:Policy><x:B/></wsp:Policy>',
    operation: '<wsp:Policy><x:O/></wsp:Policy>',
    input: '<wsp:Policy><x:I/></wsp:Policy>',
    output: '<wsp:Policy><x:U/></wsp:Policy>',
  })!;
  t.deepEqual(policies.endpoint.map(names), [[['S']], [['P']], [['B']]]);
  t.deepEqual(policies.operation.map(names), [[['O']]]);
  t.deepEqual(policies.input.map(names), [[['I']]]);
  t.deepEqual(policies.output.map(names), [[['U']]]);
});

test('wsp:ExactlyOne is the union of its alternatives, wsp:All (and wsp:Policy) their cross product', (t) => {
  const policies = policiesOf({
    binding: `<wsp:Policy><x:A/><wsp:ExactlyOne><x:B/><wsp:All><x:C/><x:D/></wsp:All></wsp:ExactlyOne><wsp:ExactlyOne><x:E/><x:F/></wsp:ExactlyOne></wsp:Policy>`,
  })!;
  t.deepEqual(names(policies.endpoint[0]), [
    ['A', 'B', 'E'],
    ['A', 'B', 'F'],
    ['A', 'C', 'D', 'E'],
    ['A', 'C', 'D', 'F'],
  ]);
});

test('wsp:Optional marks the assertion optional; wsp:Ignorable leaves it out; a nested policy is normalised too', (t) => {
  const policies = policiesOf({
    binding: `<wsp:Policy><wsam:Addressing wsp:Optional="true"><wsp:Policy><wsp:ExactlyOne><wsam:AnonymousResponses/><wsam:NonAnonymousResponses/></wsp:ExactlyOne></wsp:Policy></wsam:Addressing><x:I wsp:Ignorable="true"/></wsp:Policy>`,
  })!;
  const [[addressing, ...others]] = policies.endpoint[0];
  t.deepEqual(others, []);
  t.is(addressing.namespace, WSAM);
  t.true(addressing.optional);
  t.deepEqual(names(addressing.nested!), [['AnonymousResponses'], ['NonAnonymousResponses']]);
});

test("an assertion's attributes and its parameters (child elements outside WS-Policy) are read", (t) => {
  const policies = policiesOf({
    input: '<wsp:Policy><x:Parts><x:Body/><x:Header Name="To" Namespace="urn:h"/></x:Parts></wsp:Policy>',
  })!;
  const [[parts]] = policies.input[0];
  t.deepEqual(
    parts.parameters.map((p) => [p.name, p.attributes]),
    [
      ['Body', {}],
      ['Header', { Name: 'To', Namespace: 'urn:h' }],
    ],
  );
});

test('wsaw:UsingAddressing as an element: required with wsdl:required="true", optional without', (t) => {
  const required = policiesOf({ binding: '<wsaw:UsingAddressing wsdl:required="true"/>' })!;
  t.deepEqual(required.endpoint.map(names), [[['UsingAddressing']]]);
  const optional = policiesOf({ binding: '<wsaw:UsingAddressing/>' })!;
  t.deepEqual(optional.endpoint.map(names), [[['!UsingAddressing']]]);
});

test('the actions are the port type operation’s wsam:Action, wsaw:Action or the submission’s wsa:Action attributes', (t) => {
  const policy = '<wsp:Policy><wsam:Addressing/></wsp:Policy>';
  const actions = read({
    binding: policy,
    portTypeInput: 'wsam:Action="urn:in"',
    portTypeOutput: 'wsaw:Action="urn:out"',
    fault: 'wsa:Action="urn:fault"',
  }).operations[0].addressingActions;
  t.deepEqual(actions, { input: 'urn:in', output: 'urn:out', faults: { Oops: 'urn:fault' } });
});

test('without them, the default action pattern: namespace, port type, message name (named or the default), and the fault’s', (t) => {
  const policy = '<wsp:Policy><wsam:Addressing/></wsp:Policy>';
  t.deepEqual(read({ binding: policy, fault: '' }).operations[0].addressingActions, {
    input: 'http://echo.example.org/EchoPort/EchoRequest',
    output: 'http://echo.example.org/EchoPort/EchoResponse',
    faults: { Oops: 'http://echo.example.org/EchoPort/Echo/Fault/Oops' },
  });
  t.deepEqual(read({ binding: policy, namespace: 'http://echo.example.org/v1', inputName: 'Hello' }).operations[0].addressingActions, {
    input: 'http://echo.example.org/v1/EchoPort/Hello',
    output: 'http://echo.example.org/v1/EchoPort/EchoResponse',
  });
  t.deepEqual(read({ binding: policy, namespace: 'urn:echo', oneWay: true }).operations[0].addressingActions, {
    input: 'urn:echo:EchoPort:Echo',
    output: '',
  });
});
