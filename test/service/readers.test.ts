/**
 * The tests' own readers (test/support/readers.ts and the Pair Html reader of
 * xml-assertions.ts): documents are freed, nothing read outlives them, and
 * the checks built on them see what they must see, so a test using them can
 * fail.
 */
import test from 'ava';
import {
  childElements,
  elementAt,
  htmlAncestor,
  htmlElement,
  htmlFollowingSibling,
  htmlPrecedingSibling,
  htmlTag,
  htmlText,
  loadReaders,
  namespaceInScope,
  namespaceOf,
  prefixOf,
  readHtml,
  readXml,
  standaloneXml,
  textOf,
  type XmlDocument,
} from '../support/readers';
import { readPairingHtml, validateElement } from '../support/xml-assertions';

test.before(loadReaders);

const NS = 'http://authenticatorapi.com/';

test('readXml frees the document when its reader returns or throws, and refuses an asynchronous reader', (t) => {
  let kept: XmlDocument | undefined;
  t.is(
    readXml('<a>x</a>', (doc) => {
      kept = doc;
      return textOf(doc.root);
    }),
    'x',
  );
  t.throws(() => kept!.root, undefined, 'the document is freed after the reader returned');
  t.throws(
    () =>
      readXml('<a/>', (doc) => {
        kept = doc;
        return JSON.parse('{');
      }),
    { instanceOf: SyntaxError },
  );
  t.throws(() => kept!.root, undefined, 'and after it threw');
  t.throws(() => readXml('<a/>', async () => 1), { message: /must be synchronous/ });
  t.throws(() => readXml('<a><b></a>', () => 1), undefined, 'a document that is not well-formed is an error');
});

test('elementAt and childElements: elements only, by XPath with a namespace map, past processing instructions', (t) => {
  const xml = `<r xmlns="${NS}" xmlns:x="urn:x"><?pi one?><a>1</a><!-- c --><?pi two?><x:b k="v">2</x:b></r>`;
  readXml(xml, (doc) => {
    t.deepEqual(
      childElements(doc.root).map((e) => `{${namespaceOf(e)}}${e.name}`),
      [`{${NS}}a`, '{urn:x}b'],
    );
    t.is(textOf(elementAt(doc, '/t:r/t:a', { t: NS })!), '1');
    t.is(elementAt(doc, '/r/a'), null, 'an unprefixed XPath name is in no namespace');
    t.throws(() => elementAt(doc, '//@k'), { message: /not an element/ });
    const b = elementAt(doc, '//y:b', { y: 'urn:x' })!;
    t.is(prefixOf(b), 'x');
    t.is(prefixOf(doc.root), undefined);
    t.is(namespaceInScope(b, 'x'), 'urn:x');
    t.is(namespaceInScope(b, null), NS, 'the default namespace');
    t.is(namespaceInScope(b, 'soap'), undefined);
  });
});

test('an element validated on its own keeps the namespaces declared on its ancestors', (t) => {
  const envelope = (body: string) =>
    `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:t="${NS}"><soap:Body>${body}</soap:Body></soap:Envelope>`;
  readXml(envelope('<t:ValidatePin><t:pin>1</t:pin><t:secretCode>s</t:secretCode></t:ValidatePin>'), (doc) => {
    const element = elementAt(doc, '//t:ValidatePin', { t: NS })!;
    t.true(standaloneXml(element).includes(`xmlns:t="${NS}"`));
    const result = validateElement(element, NS);
    t.true(result.valid, result.errors.join('; '));
    t.false(validateElement(element, 'urn:another/').valid, 'the same element is invalid in another namespace');
  });
  readXml(envelope('<t:ValidatePin><t:token>x</t:token></t:ValidatePin>'), (doc) => {
    t.false(validateElement(elementAt(doc, '//t:ValidatePin', { t: NS })!, NS).valid, 'an unknown field is refused');
  });
});

test('readPairingHtml sees anything beside or inside the link', (t) => {
  const link =
    "<a title='Manually pair with X' href='otpauth://totp/A?secret=X&amp;issuer=A'><img src='data:image/svg+xml;base64,QQ==' border=0></a>";
  const plain = readPairingHtml(link);
  t.deepEqual(plain.fragment, ['a']);
  t.deepEqual(plain.linkChildren, ['img']);
  t.is(plain.href, 'otpauth://totp/A?secret=X&issuer=A', 'character references are decoded');
  t.is(plain.border, '0');
  t.deepEqual(readPairingHtml(`${link}<script>x</script>`).fragment, ['a', 'script']);
  t.deepEqual(readPairingHtml(`${link} tail`).fragment, ['a', '#text']);
  const inside = readPairingHtml(link.replace('</a>', '<b>text</b></a>'));
  t.deepEqual(inside.linkChildren, ['img', 'b']);
  t.is(inside.linkText, 'text');
  t.is(readPairingHtml(link.replace("title='Manually pair with X' ", '')).title, undefined);
});

test('HTML: ancestors, following and preceding siblings and text, as an HTML parser reads them', (t) => {
  const doc = readHtml(
    '<!doctype html><main><label>Pin <input name=pin></label><pre id=answer>&lt;b&gt;</pre><p>x<section id=meaning hidden></section></main>',
  );
  const input = htmlElement(doc, htmlTag('input', { name: 'pin' }))!;
  t.is(htmlAncestor(input, htmlTag('label'))?.name, 'label');
  t.is(htmlAncestor(input, htmlTag('form')), null);
  const answer = htmlElement(doc, htmlTag('pre', { id: 'answer' }))!;
  t.is(htmlText(answer), '<b>');
  // <p> is closed by <section>, which is therefore a sibling of the <pre>.
  t.is(htmlFollowingSibling(answer, htmlTag('section', { id: 'meaning' }))?.attribs.hidden, '');
  t.is(htmlFollowingSibling(answer, htmlTag('label')), null, 'only siblings after the element');
  const meaning = htmlElement(doc, htmlTag('section', { id: 'meaning' }))!;
  t.is(htmlPrecedingSibling(meaning, htmlTag('pre'))?.attribs.id, 'answer');
  t.is(htmlPrecedingSibling(answer, htmlTag('section')), null, 'only siblings before the element');
  t.is(htmlElement(doc, htmlTag('section', { id: 'other' })), null);
});
