"""Calls a contract through Python zeep, built from the WSDL the service serves, with the WS-Addressing and
WS-Security zeep offers, as its documentation configures them, for test/system/soap-stack-clients.test.ts.

Reads one JSON object on stdin:
  {"wsdl": URL, "calls": [{"name": NAME, "binding": "{ns}Binding", "address": URL, "op": OPERATION,
                           "args": {...}, "wsse": WSSE (optional), "wsa": true (optional)}, ...]}
  WSSE: {"kind": "text" | "digest", "username": U, "password": P}
      | {"kind": "binary-signature", "key": PEM FILE, "cert": PEM FILE}   (zeep.wsse.signature.BinarySignature, SHA-256)
      | {"kind": "binary-signature", "key": ..., "cert": ..., "serviceCert": PEM FILE}   the same, verifying the answer
        with the service's certificate through zeep.wsse.signature.verify_envelope (zeep's BinarySignature verifies
        with its own certificate, and has no setting for the other side's: zeep issue #822's way, a verify of one's own)
  "wsa": adds zeep.wsa.WsAddressingPlugin by hand (zeep addresses by itself an operation whose port type input
         names a wsam:Action or wsaw:Action, whatever the binding's policy says)
and prints {"zeep": VERSION, "results": [...]}, one entry per call, each with the envelopes zeep sent and received
(its HistoryPlugin; received is the raw HTTP answer's body where zeep refused it before parsing):
  {"ok": SERIALIZED ANSWER}  {"fault": {"code", "message", "detail"}}  {"error": {"type", "message"}}
"""
import json
import sys

import zeep
import zeep.helpers
from lxml import etree
from zeep.exceptions import Fault
from zeep.plugins import HistoryPlugin
from zeep.transports import Transport


class KeepingTransport(Transport):
    """Keeps the last HTTP answer's body: zeep verifies a signed call's answer before any plugin sees it."""

    last_body = None

    def post_xml(self, address, envelope, headers):
        response = super().post_xml(address, envelope, headers)
        self.last_body = response.content.decode("utf-8", "replace")
        return response


def wsse_of(spec):
    if spec is None:
        return None
    if spec["kind"] in ("text", "digest"):
        from zeep.wsse.username import UsernameToken

        return UsernameToken(spec["username"], spec["password"], use_digest=spec["kind"] == "digest")
    if spec["kind"] == "binary-signature":
        import xmlsec
        from zeep.wsse.signature import BinarySignature

        kind = BinarySignature
        if "serviceCert" in spec:
            from zeep.wsse.signature import verify_envelope

            class ServiceSigned(BinarySignature):
                def verify(self, envelope):
                    verify_envelope(envelope, spec["serviceCert"])
                    return envelope

            kind = ServiceSigned
        return kind(
            spec["key"],
            spec["cert"],
            signature_method=xmlsec.constants.TransformRsaSha256,
            digest_method=xmlsec.constants.TransformSha256,
        )
    raise ValueError(spec["kind"])


def envelope(history, direction):
    try:
        entry = history.last_sent if direction == "sent" else history.last_received
    except IndexError:
        return None
    return None if entry is None else etree.tostring(entry["envelope"], encoding="unicode")


def main():
    job = json.load(sys.stdin)
    results = []
    for call in job["calls"]:
        history = HistoryPlugin()
        plugins = [history]
        if call.get("wsa"):
            from zeep.wsa import WsAddressingPlugin

            plugins.insert(0, WsAddressingPlugin())
        transport = KeepingTransport(timeout=60, operation_timeout=60)
        client = zeep.Client(job["wsdl"], wsse=wsse_of(call.get("wsse")), plugins=plugins, transport=transport)
        service = client.create_service(call["binding"], call["address"])
        result = {"name": call["name"]}
        try:
            answer = getattr(service, call["op"])(**call["args"])
            result["ok"] = zeep.helpers.serialize_object(answer, dict)
        except Fault as fault:
            detail = None if fault.detail is None else etree.tostring(fault.detail, encoding="unicode")
            result["fault"] = {"code": fault.code, "message": fault.message, "detail": detail}
        except Exception as error:  # what a caller of zeep sees: the exception's class and message
            result["error"] = {"type": f"{type(error).__module__}.{type(error).__qualname__}", "message": str(error)}
        result["sent"] = envelope(history, "sent")
        result["received"] = envelope(history, "received") or transport.last_body
        results.append(result)
    json.dump({"zeep": zeep.__version__, "results": results}, sys.stdout, default=str)


main()
