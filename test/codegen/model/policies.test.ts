/**
 * codegen/model/policies.ts: the policies of an operation's endpoint, bound operation and input merged per SOAP
 * binding, the first alternative the runtime enforces kept and read into a SoapPolicy, the answer signed when the
 * output's policy signs, the actions kept where addressing is asked; what is not enforced said once a contract.
 */
import test from 'ava';
import type { OperationModel } from '../../../codegen/model/model';
import { attachPolicies, chooseAlternative, mergePolicies, readAlternative } from '../../../codegen/model/policies';
import type { PolicyAssertion, PolicyFacts, WsdlOperationFacts, WsdlOperationPolicies } from '../../../codegen/read/wsdl';

const SP12 = 'http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702';
const SP11 = 'http://schemas.xmlsoap.org/ws/2005/07/securitypolicy';
const WSAM = 'http://www.w3.org/2007/05/addressing/metadata';

/** An assertion, its nested policy one alternative of `nested` when given. */
const a = (namespace: string, name: string, more: Partial<PolicyAssertion> & { inner?: PolicyAssertion[] } = {}): PolicyAssertion => {
  const { inner, ...rest } = more;
  return { namespace, name, attributes: {}, parameters: [], ...(inner ? { nested: [inner] } : {}), ...rest };
};
const sp = (name: string, more: Partial<PolicyAssertion> & { inner?: PolicyAssertion[] } = {}) => a(SP12, name, more);
const one = (...assertions: PolicyAssertion[]): PolicyFacts => [assertions];

const ADDRESSING = a(WSAM, 'Addressing');
const USERNAME = sp('SupportingTokens', { inner: [sp('UsernameToken', { inner: [sp('WssUsernameToken10')] })] });
const ASYMMETRIC = a(SP11, 'AsymmetricBinding', {
  inner: [
    a(SP11, 'InitiatorToken', { inner: [a(SP11, 'X509Token')] }),
    a(SP11, 'RecipientToken', { inner: [a(SP11, 'X509Token')] }),
    a(SP11, 'AlgorithmSuite', { inner: [a(SP11, 'Basic256')] }),
    a(SP11, 'IncludeTimestamp'),
  ],
});
const SIGNED_BODY = a(SP11, 'SignedParts', { parameters: [a(SP11, 'Body')] });

test('each assertion the runtime enforces is read into its member of the policy', (t) => {
  t.deepEqual(readAlternative([ADDRESSING]).policy, { addressing: 'required' });
  t.deepEqual(readAlternative([{ ...ADDRESSING, optional: true }]).policy, { addressing: 'optional' });
  t.deepEqual(readAlternative([a('http://www.w3.org/2006/05/addressing/wsdl', 'UsingAddressing')]).policy, { addressing: 'required' });
  t.deepEqual(readAlternative([USERNAME]).policy, { usernameToken: { password: 'text' } });
  const hashed = sp('SignedSupportingTokens', { inner: [sp('UsernameToken', { inner: [sp('HashPassword')] })] });
  t.deepEqual(readAlternative([hashed]).policy, { usernameToken: { password: 'digest' } });
  const none = sp('SupportingTokens', { inner: [sp('UsernameToken', { inner: [sp('NoPassword')] })] });
  t.deepEqual(readAlternative([none]).policy, { usernameToken: { password: 'any' } });
  t.deepEqual(
    readAlternative([a('http://schemas.xmlsoap.org/ws/2004/09/policy/optimizedmimeserialization', 'OptimizedMimeSerialization')]).policy,
    {
      mtom: true,
    },
  );
  const transport = sp('TransportBinding', {
    inner: [sp('TransportToken', { inner: [sp('HttpsToken')] }), sp('AlgorithmSuite', { inner: [sp('Basic256')] }), sp('IncludeTimestamp')],
  });
  const overHttps = readAlternative([transport]);
  t.deepEqual([overHttps.policy, overHttps.https, overHttps.unsupported], [{ timestamp: true }, true, []]);
});

test('an X.509 asymmetric binding signs the parts sp:SignedParts names, with the algorithm suite’s digest', (t) => {
  const header = a(SP11, 'Header', { attributes: { Namespace: 'http://www.w3.org/2005/08/addressing', Name: 'To' } });
  const anyOfNamespace = a(SP11, 'Header', { attributes: { Namespace: 'urn:h' } });
  const reading = readAlternative([ASYMMETRIC, a(SP11, 'SignedParts', { parameters: [a(SP11, 'Body'), header, anyOfNamespace] })]);
  t.deepEqual(reading.unsupported, []);
  t.deepEqual(reading.policy, {
    timestamp: true,
    signature: {
      body: true,
      headers: [{ namespace: 'http://www.w3.org/2005/08/addressing', name: 'To' }, { namespace: 'urn:h' }],
      digest: 'sha1',
      signAnswer: true,
    },
  });
  const sha256 = a(SP11, 'AsymmetricBinding', { inner: [a(SP11, 'AlgorithmSuite', { inner: [a(SP11, 'Basic256Sha256')] })] });
  t.is(readAlternative([sha256]).policy.signature?.digest, 'sha256');
  const sha1 = a(SP11, 'AsymmetricBinding', { inner: [a(SP11, 'AlgorithmSuite', { inner: [a(SP11, 'Basic128')] })] });
  t.is(readAlternative([sha1]).policy.signature?.digest, 'sha1');
});

test('each assertion the runtime does not enforce is named, nested ones by their own name', (t) => {
  const reading = readAlternative([
    sp('SymmetricBinding'),
    sp('EncryptedParts'),
    sp('SupportingTokens', { inner: [sp('IssuedToken')] }),
    sp('Wss11', { inner: [sp('MustSupportRefKeyIdentifier'), sp('MustSupportRefThumbprint'), sp('RequireSignatureConfirmation')] }),
    sp('Trust13'),
    a('http://docs.oasis-open.org/ws-rx/wsrmp/200702', 'RMAssertion'),
    a('urn:vendor', 'Custom'),
    a(SP11, 'AsymmetricBinding', { inner: [a(SP11, 'InitiatorToken', { inner: [a(SP11, 'SamlToken')] }), a(SP11, 'EncryptSignature')] }),
  ]);
  t.deepEqual(reading.unsupported, [
    'sp:SymmetricBinding',
    'sp:EncryptedParts',
    'sp:IssuedToken',
    'sp:MustSupportRefThumbprint',
    'sp:RequireSignatureConfirmation',
    'sp:Trust13',
    'wsrmp:RMAssertion',
    '{urn:vendor}Custom',
    'sp:SamlToken',
    'sp:EncryptSignature',
  ]);
});

test('a binding the runtime does not speak (sp:SymmetricBinding) is named, its timestamp still asked', (t) => {
  const reading = readAlternative([sp('SymmetricBinding', { inner: [sp('IncludeTimestamp'), sp('ProtectionToken')] })]);
  t.deepEqual([reading.policy, reading.unsupported], [{ timestamp: true }, ['sp:SymmetricBinding']]);
});

test('an optional assertion other than addressing is not asked of calls, and said so', (t) => {
  const reading = readAlternative([{ ...USERNAME, optional: true }]);
  t.deepEqual([reading.policy, reading.optional], [{}, ['sp:SupportingTokens']]);
});

test('merged policies are the conjunction of each one’s alternatives; the first alternative the runtime enforces is kept', (t) => {
  const merged = mergePolicies([[[ADDRESSING]], [[sp('SymmetricBinding')], [USERNAME]], one(a(SP11, 'Wss10'))]);
  t.is(merged.length, 2);
  const chosen = chooseAlternative(merged);
  t.is(chosen.alternatives, 2);
  t.deepEqual(chosen.reading.policy, { addressing: 'required', usernameToken: { password: 'text' } });
  // None enforced whole: the first, its assertions named.
  const neither = chooseAlternative([[sp('SymmetricBinding')], [sp('IssuedToken')]]);
  t.deepEqual(neither.reading.unsupported, ['sp:SymmetricBinding']);
});

const policies = (parts: Partial<WsdlOperationPolicies>): WsdlOperationPolicies => ({
  binding: 'B',
  endpoint: [],
  operation: [],
  input: [],
  output: [],
  ...parts,
});
const operation = (name: string): OperationModel =>
  ({
    name,
    void: false,
    oneWay: false,
    documentation: '',
    request: { type: {} },
    result: undefined,
    soap: undefined,
    http: undefined,
  }) as unknown as OperationModel;
const facts = (name: string, p: WsdlOperationFacts['policies']): WsdlOperationFacts => ({
  name,
  documentation: '',
  style: 'document',
  soapActions: {},
  faults: [],
  policies: p,
  addressingActions: { input: `urn:${name}`, output: `urn:${name}Response` },
});

test('the pass merges endpoint, operation and input per SOAP binding; the answer is signed when the output’s policy signs', (t) => {
  const ops = [operation('Pay'), operation('Peek'), operation('Plain')];
  const lines: string[] = [];
  attachPolicies(
    ops,
    {
      operations: [
        facts('Pay', {
          soap11: policies({ endpoint: [one(ASYMMETRIC)], input: [one(SIGNED_BODY)], output: [one(SIGNED_BODY)] }),
          soap12: policies({ binding: 'B12', endpoint: [one(ADDRESSING)], operation: [one(USERNAME)] }),
        }),
        facts('Peek', { soap11: policies({ endpoint: [one(ASYMMETRIC)], input: [one(SIGNED_BODY)] }) }),
        facts('Plain', { soap11: policies({ endpoint: [[[]]] }) }),
      ],
    },
    (line) => lines.push(line),
  );
  t.deepEqual(ops[0].policies, {
    soap11: { timestamp: true, signature: { body: true, headers: [], digest: 'sha1', signAnswer: true } },
    soap12: { addressing: 'required', usernameToken: { password: 'text' } },
  });
  t.deepEqual(ops[0].addressingActions, { input: 'urn:Pay', output: 'urn:PayResponse' });
  // The output's policy is the endpoint's alone: the binding signs it, with no part named.
  t.deepEqual(ops[1].policies?.soap11?.signature, { body: true, headers: [], digest: 'sha1', signAnswer: true });
  t.is(ops[1].addressingActions, undefined, 'no addressing: no actions');
  t.is(ops[2].policies, undefined, 'a policy asking for nothing');
  t.deepEqual(lines, []);
});

test('what is not enforced is said in one line a contract, naming the bindings and operations; HTTPS in a line too', (t) => {
  const ops = ['A', 'B', 'C', 'D', 'E'].map(operation);
  const lines: string[] = [];
  const transport = sp('TransportBinding', { inner: [sp('TransportToken', { inner: [sp('HttpsToken')] })] });
  attachPolicies(
    ops,
    {
      operations: ops.map((op) =>
        facts(op.name, {
          soap11: policies({ endpoint: [[[sp('SymmetricBinding')], [transport, { ...USERNAME, optional: true }]]] }),
          soap12: policies({ binding: 'B12', endpoint: [one(sp('EncryptedParts'))] }),
        }),
      ),
      unreadPolicies: ['wsp:PolicyReference URI="http://x/p" (no document of the contract holds it)'],
    },
    (line) => lines.push(line),
  );
  t.deepEqual(lines, [
    'codegen: warning: wsp:PolicyReference URI="http://x/p" (no document of the contract holds it) is not enforced: calls are served without it',
    'codegen: warning: WS-Policy assertion sp:SupportingTokens of binding B, operations A, B, C and 2 more is optional: it is not asked of calls',
    'codegen: warning: WS-Policy of binding B, operations A, B, C and 2 more offers several alternatives: the first the runtime enforces is served, the others left out',
    'codegen: WS-Policy of binding B, operations A, B, C and 2 more asks for HTTPS (sp:TransportBinding): serve it behind TLS',
    'codegen: warning: WS-Policy assertion sp:EncryptedParts of binding B12, operations A, B, C and 2 more is not enforced: the runtime does not support it; calls are served without it',
  ]);
});
