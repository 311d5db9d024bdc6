"""Checks WS-Security signed SOAP answers with the XML Security Library (Debian python3-xmlsec, over libxmlsec1 and
OpenSSL), as Python zeep's BinarySignature checks a signed answer: the wsse:Security header's ds:Signature, each
reference's element found by its wsu:Id and registered as an Id, verified with the key of the certificate given
(never one the answer carries).

Reads one JSON object on stdin:
  {"certificate": PEM, "answers": [{"name": TEXT, "xml": XML}]}
and prints {"xmlsec": VERSION, "results": [{"name": TEXT, "valid": BOOL, "signed": ["{ns}local", ...],
"method": URI, "error": TEXT}]} on stdout.
"""
import json
import sys

import xmlsec
from lxml import etree

WSSE = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"
WSU = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"
DS = "http://www.w3.org/2000/09/xmldsig#"


def verify(xml, certificate):
    root = etree.fromstring(xml.encode("utf-8"))
    envelope = etree.QName(root).namespace
    security = root.find(f"{{{envelope}}}Header/{{{WSSE}}}Security")
    if security is None:
        raise ValueError("no Security header")
    signature = security.find(f"{{{DS}}}Signature")
    if signature is None:
        raise ValueError("no Signature")
    context = xmlsec.SignatureContext()
    signed = []
    for reference in signature.iterfind(f"{{{DS}}}SignedInfo/{{{DS}}}Reference"):
        uri = reference.get("URI", "")
        if not uri.startswith("#"):
            raise ValueError(f"a reference that is not by Id: {uri}")
        found = root.xpath("//*[@wsu:Id=$id]", namespaces={"wsu": WSU}, id=uri[1:])
        if len(found) != 1:
            raise ValueError(f"{len(found)} elements with the Id {uri}")
        context.register_id(found[0], "Id", WSU)
        signed.append(found[0].tag)
    context.key = xmlsec.Key.from_memory(certificate.encode("ascii"), xmlsec.constants.KeyDataFormatCertPem)
    context.verify(signature)
    method = signature.find(f"{{{DS}}}SignedInfo/{{{DS}}}SignatureMethod").get("Algorithm")
    return signed, method


def main():
    given = json.load(sys.stdin)
    results = []
    for answer in given["answers"]:
        try:
            signed, method = verify(answer["xml"], given["certificate"])
            results.append({"name": answer["name"], "valid": True, "signed": signed, "method": method})
        except Exception as error:  # noqa: BLE001 - any failure is a refusal, reported
            results.append({"name": answer["name"], "valid": False, "error": f"{type(error).__name__}: {error}"})
    print(json.dumps({"xmlsec": getattr(xmlsec, "__version__", "unknown"), "results": results}))


main()
