/**
 * WS-Policy through codegen, on the fixture contracts of test/fixtures/contracts/ that attach it (wcf-wshttp,
 * jaxws-addressing, x509-signature, mtom): the routes generated code holds carry each operation's policies per SOAP
 * binding and its WS-Addressing actions; the served WSDL keeps each policy as the contract wrote it, and read again
 * is the same contract; each assertion the runtime does not enforce is named in its one warning line.
 */
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadContract } from '../../codegen/harness/load-generated';
import { contractModel } from '../../codegen/main';
import { ADDRESS_MARKER } from '../../codegen/documents/wsdl';
import { readContract } from '../../codegen/read/contract';
import { loadXmlEngine } from '../../src/runtime/xml/xml-engine';
import { compileSchemaSet } from '../../src/runtime/xml/xml-schema';

const FIXTURES = join(__dirname, '..', 'fixtures', 'contracts');
const WCF = join(FIXTURES, 'wcf-wshttp', 'Greeter.wsdl');
const JAXWS = join(FIXTURES, 'jaxws-addressing', 'Orders.wsdl');
const X509 = join(FIXTURES, 'x509-signature', 'Payments.wsdl');
const MTOM = join(FIXTURES, 'mtom', 'Documents.wsdl');
const work = mkdtempSync(join(tmpdir(), 'codegen-policies-'));

test.before(async () => {
  await loadXmlEngine();
});
test.after.always(() => rmSync(work, { recursive: true, force: true }));

/** Each operation's policies and actions, as the generated routes hold them. */
async function routesOf(wsdl: string): Promise<Record<string, { policies?: unknown; addressingActions?: unknown }>> {
  const lines: string[] = [];
  const { definition, remove } = await loadContract(wsdl, { note: (line) => lines.push(line) });
  try {
    return Object.fromEntries(
      Object.entries(definition.routes).map(([name, route]) => {
        const { policies, addressingActions } = route as { policies?: unknown; addressingActions?: unknown };
        return [name, { ...(policies ? { policies } : {}), ...(addressingActions ? { addressingActions } : {}) }];
      }),
    );
  } finally {
    remove();
  }
}

/** The lines codegen says of a contract. */
async function linesOf(wsdl: string): Promise<string[]> {
  const lines: string[] = [];
  const warn = (line: string) => lines.push(line);
  contractModel(await readContract(wsdl, { warn }), warn);
  return lines;
}

test('wcf-wshttp: the wsHttpBinding (SOAP 1.2) asks for addressing and a UsernameToken, with the wsaw:Action actions; basicHttpBinding nothing', async (t) => {
  t.timeout(120_000, 'generate and load');
  const policies = { soap12: { addressing: 'required', usernameToken: { password: 'text' } } };
  t.deepEqual(await routesOf(WCF), {
    Greet: {
      policies,
      addressingActions: { input: 'http://tempuri.org/IGreeter/Greet', output: 'http://tempuri.org/IGreeter/GreetResponse' },
    },
    Ping: {
      policies,
      addressingActions: { input: 'http://tempuri.org/IGreeter/Ping', output: 'http://tempuri.org/IGreeter/PingResponse' },
    },
  });
  t.deepEqual(await linesOf(WCF), []);
});

test('jaxws-addressing: UsingAddressing wsdl:required makes SOAP 1.1 require addressing, the optional wsam:Addressing SOAP 1.2 read it; wsam:Action or the default pattern', async (t) => {
  t.timeout(120_000, 'generate and load');
  const policies = { soap11: { addressing: 'required' }, soap12: { addressing: 'optional' } };
  const base = 'http://orders.example.org/ws/OrderPort/';
  t.deepEqual(await routesOf(JAXWS), {
    placeOrder: {
      policies,
      addressingActions: {
        input: `${base}placeOrderRequest`,
        output: `${base}placeOrderResponse`,
        faults: { UnknownOrder: `${base}placeOrder/Fault/UnknownOrder` },
      },
    },
    cancel: {
      policies,
      addressingActions: {
        input: `${base}cancelRequest`,
        output: `${base}cancelResponse`,
        faults: { UnknownOrder: `${base}cancel/Fault/UnknownOrder` },
      },
    },
  });
  t.deepEqual(await linesOf(JAXWS), []);
});

test('x509-signature: the asymmetric binding signs body, timestamp and wsa:To with SHA-256, and the answer; no actions without addressing', async (t) => {
  t.timeout(120_000, 'generate and load');
  t.deepEqual(await routesOf(X509), {
    Pay: {
      policies: {
        soap11: {
          timestamp: true,
          signature: {
            body: true,
            headers: [{ namespace: 'http://www.w3.org/2005/08/addressing', name: 'To' }],
            digest: 'sha256',
            signAnswer: true,
          },
        },
      },
    },
  });
  t.deepEqual(await linesOf(X509), []);
});

test('mtom: OptimizedMimeSerialization by wsp:PolicyAttachment (SOAP 1.1) and wsp:PolicyURIs (SOAP 1.2)', async (t) => {
  t.timeout(120_000, 'generate and load');
  const policies = { soap11: { mtom: true }, soap12: { mtom: true } };
  t.deepEqual(await routesOf(MTOM), { Store: { policies }, Fetch: { policies } });
  t.deepEqual(await linesOf(MTOM), []);
});

for (const [name, wsdl, kept] of [
  [
    'wcf-wshttp',
    WCF,
    [
      /<wsp:Policy wsu:Id="WSHttpBinding_IGreeter_policy">/,
      /<wsp:PolicyReference URI="#WSHttpBinding_IGreeter_policy"\/>/,
      /<sp:SignedSupportingTokens>/,
      /<wsam:Addressing>/,
      /wsaw:Action="http:\/\/tempuri\.org\/IGreeter\/Greet"/,
    ],
  ],
  [
    'jaxws-addressing',
    JAXWS,
    [
      /<wsp:Policy xml:id="OrdersSoap12AddressingPolicy">/,
      /<wsaw:UsingAddressing wsdl:required="true"\/>/,
      /<wsam:Addressing wsp:Optional="true">/,
      /wsam:Action="http:\/\/orders\.example\.org\/ws\/OrderPort\/placeOrder\/Fault\/UnknownOrder"/,
    ],
  ],
  [
    'x509-signature',
    X509,
    [
      /<sp:AsymmetricBinding>/,
      /<sp:Basic256Sha256\/>/,
      /<wsp:PolicyReference URI="#Payments_Pay_Input_policy"\/>/,
      /<sp:Header Name="To" Namespace="http:\/\/www\.w3\.org\/2005\/08\/addressing"\/>/,
    ],
  ],
  [
    'mtom',
    MTOM,
    [/<wsp:PolicyAttachment>/, /wsdl11\.binding\(DocumentsSoap\)/, /wsp:PolicyURIs="#Mtom_policy"/, /<wsoma:OptimizedMimeSerialization\/>/],
  ],
] as const) {
  test(`${name}: the served WSDL keeps each policy and the namespaces it needs, and read again is the same contract`, async (t) => {
    const model = contractModel(await readContract(wsdl));
    for (const pattern of kept) t.regex(model.wsdl, pattern);
    for (const prefix of [
      'wsp',
      ...new Set([...model.wsdl.matchAll(/<(\w+):(?:Policy|Addressing|UsingAddressing|OptimizedMimeSerialization)\b/g)].map((m) => m[1])),
    ]) {
      t.regex(model.wsdl, new RegExp(`xmlns:${prefix}="`), `${prefix} is declared`);
    }
    // The schemas served compile, and the served WSDL, read again, is the contract it was: the same policies and actions.
    t.notThrows(() => compileSchemaSet(model.schemas.map((s) => s.text)));
    const served = join(work, `${name}.wsdl`);
    writeFileSync(served, model.wsdl.replaceAll(ADDRESS_MARKER, 'http://localhost'));
    const again = contractModel(await readContract(served));
    t.deepEqual(
      again.operations.map((op) => [op.name, op.policies, op.addressingActions]),
      model.operations.map((op) => [op.name, op.policies, op.addressingActions]),
    );
  });
}

/** A contract of one operation over SOAP 1.1 whose binding's policy is `assertions`, written to the work folder. */
function contractWith(name: string, assertions: string): string {
  const path = join(work, `${name}.wsdl`);
  writeFileSync(
    path,
    `<?xml version="1.0"?>
<wsdl:definitions targetNamespace="urn:u" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:tns="urn:u" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:wsp="http://www.w3.org/ns/ws-policy" xmlns:sp="http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702" xmlns:sp11="http://schemas.xmlsoap.org/ws/2005/07/securitypolicy" xmlns:wsrmp="http://docs.oasis-open.org/ws-rx/wsrmp/200702" xmlns:wsrm="http://schemas.xmlsoap.org/ws/2005/02/rm/policy">
  <wsdl:types><xsd:schema targetNamespace="urn:u" elementFormDefault="qualified">
    <xsd:element name="Do"><xsd:complexType><xsd:sequence/></xsd:complexType></xsd:element>
    <xsd:element name="DoResponse"><xsd:complexType><xsd:sequence/></xsd:complexType></xsd:element>
  </xsd:schema></wsdl:types>
  <wsdl:message name="In"><wsdl:part name="p" element="tns:Do"/></wsdl:message>
  <wsdl:message name="Out"><wsdl:part name="p" element="tns:DoResponse"/></wsdl:message>
  <wsdl:portType name="P"><wsdl:operation name="Do"><wsdl:input message="tns:In"/><wsdl:output message="tns:Out"/></wsdl:operation></wsdl:portType>
  <wsdl:binding name="S" type="tns:P">
    <wsp:Policy>${assertions}</wsp:Policy>
    <soap:binding transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="Do"><soap:operation soapAction="urn:Do"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="U"><wsdl:port name="S" binding="tns:S"><soap:address location="http://localhost/u"/></wsdl:port></wsdl:service>
</wsdl:definitions>`,
  );
  return path;
}

const notEnforced = (name: string) =>
  `codegen: warning: WS-Policy assertion ${name} of binding S, operation Do is not enforced: the runtime does not support it; calls are served without it`;

for (const [name, assertion] of [
  ['sp:SymmetricBinding', '<sp:SymmetricBinding><wsp:Policy/></sp:SymmetricBinding>'],
  ['sp:EncryptedParts', '<sp:EncryptedParts><sp:Body/></sp:EncryptedParts>'],
  ['sp:IssuedToken', '<sp:SupportingTokens><wsp:Policy><sp:IssuedToken/></wsp:Policy></sp:SupportingTokens>'],
  ['sp:SamlToken', '<sp:SignedSupportingTokens><wsp:Policy><sp:SamlToken/></wsp:Policy></sp:SignedSupportingTokens>'],
  ['wsrmp:RMAssertion', '<wsrmp:RMAssertion/>'],
  ['wsrm:RMAssertion', '<wsrm:RMAssertion/>'],
  ['sp:SecureConversationToken', '<sp:SupportingTokens><wsp:Policy><sp:SecureConversationToken/></wsp:Policy></sp:SupportingTokens>'],
  ['sp:MustSupportRefThumbprint', '<sp:Wss11><wsp:Policy><sp:MustSupportRefThumbprint/></wsp:Policy></sp:Wss11>'],
  ['sp:RequireSignatureConfirmation', '<sp11:Wss11><wsp:Policy><sp11:RequireSignatureConfirmation/></wsp:Policy></sp11:Wss11>'],
  ['sp:Trust13', '<sp:Trust13><wsp:Policy/></sp:Trust13>'],
] as const) {
  test(`${name} is named in its one warning line, and the contract is generated all the same`, async (t) => {
    const lines = await linesOf(contractWith(name.replace(/\W/g, '-'), assertion));
    t.deepEqual(lines, [notEnforced(name)]);
  });
}
