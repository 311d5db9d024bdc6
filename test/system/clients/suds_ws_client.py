"""Calls a contract through Python suds (python3-suds), built from the WSDL the service serves, with a WS-Security
UsernameToken as suds.wsse builds it, for test/system/soap-stack-clients.test.ts.

Reads one JSON object on stdin:
  {"wsdl": URL, "calls": [{"name": NAME, "port": PORT, "address": URL, "op": OPERATION, "args": {...},
                           "token": {"kind": "text" | "digest", "username": U, "password": P}}, ...]}
  text: UsernameToken with suds's own setnonce() and setcreated() (a hex nonce with no EncodingType);
  digest: suds has no digest of its own: its users compute it (setpassworddigest over a Base64 nonce and the
  Created exactly as suds writes it, setnonceencoding), as below
and prints {"suds": VERSION, "results": [...]}, one entry per call, with the envelopes sent and received:
  {"ok": ANSWER AS TEXT}  {"fault": {"code", "message"}}  {"error": {"type", "message"}}
"""
import base64
import datetime
import hashlib
import json
import os
import sys

import suds
from suds.client import Client
from suds.plugin import MessagePlugin
from suds.sax.date import DateTime
from suds.wsse import Security, UsernameToken


class Keep(MessagePlugin):
    """The envelopes sent and received (suds's plugin hooks)."""

    sent_text = None
    received_text = None

    def sending(self, context):
        self.sent_text = context.envelope.decode("utf-8") if isinstance(context.envelope, bytes) else str(context.envelope)

    def received(self, context):
        self.received_text = context.reply.decode("utf-8") if isinstance(context.reply, bytes) else str(context.reply)


def token_of(spec):
    token = UsernameToken(spec["username"], spec["password"])
    if spec["kind"] == "text":
        token.setnonce()
        token.setcreated()
        return token
    nonce = os.urandom(16)
    token.setnonce(base64.b64encode(nonce).decode())
    token.setnonceencoding(True)
    created = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    token.setcreated(created)
    # suds writes Created in its own form ("...+00:00"): the digest is over that text.
    text = str(DateTime(created))
    digest = hashlib.sha1(nonce + text.encode() + spec["password"].encode()).digest()
    token.setpassworddigest(base64.b64encode(digest).decode())
    return token


def main():
    job = json.load(sys.stdin)
    results = []
    for call in job["calls"]:
        keep = Keep()
        client = Client(job["wsdl"], port=call["port"], cache=None, plugins=[keep], timeout=60)
        client.set_options(location=call["address"])
        if call.get("token"):
            security = Security()
            security.tokens.append(token_of(call["token"]))
            client.set_options(wsse=security)
        result = {"name": call["name"]}
        try:
            answer = getattr(client.service, call["op"])(**call["args"])
            result["ok"] = str(answer)
        except suds.WebFault as fault:
            result["fault"] = {"code": str(fault.fault.faultcode), "message": str(fault.fault.faultstring)}
        except Exception as error:
            result["error"] = {"type": f"{type(error).__module__}.{type(error).__qualname__}", "message": str(error)}
        result["sent"] = keep.sent_text
        result["received"] = keep.received_text
        results.append(result)
    json.dump({"suds": suds.__version__, "results": results}, sys.stdout, default=str)


main()
