"""Calls the service through Python zeep, built from the WSDL the service serves.

Reads one JSON object on stdin:
  {"wsdl": URL, "port": "AuthenticatorAPISoap" | "AuthenticatorAPISoap12" | "AuthenticatorAPIHttpGet" | ...,
   "calls": [{"op": "Pair" | "ValidatePin", "args": {...}}, ...],
   "verify": PATH (optional: over HTTPS, the CA bundle to trust, as requests' users give a private CA)}
and prints {"results": [...]} on stdout, one entry per call:
  {"ok": value}                     Pair: {"ManualSetupCode", "Html"}; ValidatePin: true/false
  {"fault": {"type", "code", "message"}}   a zeep.exceptions.Fault
  {"error": {"type", "message"}}    anything else (a transport error, a parse error, ...)
"""
import json
import sys

import requests
import zeep
import zeep.helpers
from zeep.exceptions import Fault
from zeep.transports import Transport


def qualified_name(error):
    kind = type(error)
    return f"{kind.__module__}.{kind.__qualname__}"


def main():
    request = json.load(sys.stdin)
    session = requests.Session()
    if "verify" in request:
        session.verify = request["verify"]
        # Else REQUESTS_CA_BUNDLE, when set, would override the session's verify (psf/requests#3829).
        session.trust_env = False
    client = zeep.Client(request["wsdl"], transport=Transport(session=session))
    service = client.bind("AuthenticatorAPI", request["port"])
    results = []
    for call in request["calls"]:
        try:
            value = zeep.helpers.serialize_object(getattr(service, call["op"])(**call["args"]), target_cls=dict)
            results.append({"ok": value})
        except Fault as fault:
            message = fault.message
            if isinstance(message, bytes):  # zeep's HTTP GET/POST bindings raise Fault(body) for a non-200 answer
                message = message.decode("utf-8")
            results.append({"fault": {"type": qualified_name(fault), "code": fault.code, "message": message.strip()}})
        except Exception as error:  # reported, so the test says what went wrong instead of a traceback
            results.append({"error": {"type": qualified_name(error), "message": str(error)}})
    json.dump({"zeep": zeep.__version__, "results": results}, sys.stdout)


if __name__ == "__main__":
    main()
