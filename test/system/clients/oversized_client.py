"""Sends request bodies over the service's limit with Python's urllib.request, as its callers do: the whole
body is written (http.client's sendall, chunk by chunk when it is an iterable, then Transfer-Encoding:
chunked) before a byte of the answer is read.

Reads one JSON object on stdin:
  {"base": "http://host:port", "concurrency": 8,
   "uploads": [{"path": "/api.asmx", "headers": {...}, "size": 123456, "encoding": "identity" | "gzip" | "deflate",
                "chunked": true | false, "prefix": "...", "suffix": "..."}, ...]}
The body is prefix + size bytes + suffix: letters for identity, else base64 text of random bytes (which compresses
little: most of the encoded body is still to be sent when its decoded size passes the limit), compressed.
Prints {"results": [...]} on stdout, one entry per upload, in order:
  {"status": 413, "connection": "close", "contentLength": "54", "body": "...", "sent": 123456}
  {"error": {"type": "...", "message": "..."}, "sent": 123456}   no answer (a broken pipe, a reset, a timeout)
"""
import base64
import concurrent.futures
import json
import os
import sys
import urllib.error
import urllib.request
import zlib

PIECE = 64 * 1024


def body_of(upload):
    size = upload["size"]
    if upload["encoding"] == "identity":
        payload = b"a" * size
    else:
        payload = base64.b64encode(os.urandom(size * 3 // 4 + 3))[:size]
    payload = upload.get("prefix", "").encode("utf-8") + payload + upload.get("suffix", "").encode("utf-8")
    if upload["encoding"] == "gzip":
        compressor = zlib.compressobj(6, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
        return compressor.compress(payload) + compressor.flush()
    if upload["encoding"] == "deflate":
        return zlib.compress(payload, 6)
    return payload


def send(base, upload):
    body = body_of(upload)
    headers = dict(upload.get("headers", {}))
    if upload["encoding"] != "identity":
        headers["Content-Encoding"] = upload["encoding"]
    # An iterable without Content-Length is sent chunked; bytes are sent with their Content-Length.
    data = (body[at:at + PIECE] for at in range(0, len(body), PIECE)) if upload["chunked"] else body
    request = urllib.request.Request(base + upload["path"], data=data, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            answer = (response.status, response.headers, response.read())
    except urllib.error.HTTPError as error:
        answer = (error.code, error.headers, error.read())
    except Exception as error:  # a broken pipe, a reset, a timeout: no answer read
        return {"error": {"type": type(error).__name__, "message": str(error)[:200]}, "sent": len(body)}
    status, headers, content = answer
    return {
        "status": status,
        "connection": headers.get("Connection"),
        "contentLength": headers.get("Content-Length"),
        "jsonerror": headers.get("jsonerror"),
        "body": content.decode("utf-8", "replace"),
        "sent": len(body),
    }


def main():
    request = json.load(sys.stdin)
    with concurrent.futures.ThreadPoolExecutor(max_workers=request["concurrency"]) as pool:
        results = list(pool.map(lambda upload: send(request["base"], upload), request["uploads"]))
    json.dump({"results": results}, sys.stdout)


if __name__ == "__main__":
    main()
