<?php
/**
 * Calls the encoded tracker contract (test/fixtures/encoded/tracker.wsdl) through PHP's SoapClient (ext-soap) in
 * WSDL mode, SOAP 1.1, built from the WSDL the server serves: SoapClient writes rpc/encoded calls (xsi:type on
 * every value, SOAP-ENC:Array with its arrayType) and decodes encoded answers by the WSDL's types.
 *
 * Reads {"wsdl": URL, "calls": [{"op": NAME, "args": {PART: VALUE, ...}}, ...]} on stdin, VALUES in the normalized
 * JSON form of test/system/encoded-clients.test.ts (structs as objects, arrays as lists, base64Binary as Base64 text,
 * dateTime as UTC "YYYY-MM-DDTHH:MM:SSZ", nil as null), and prints {"client": "php VERSION", "results": [...]}:
 *   {"ok": VALUE, "sent": XML}                               the decoded answer, normalized the same way
 *   {"fault": {"code", "message", "detail"}, "sent": XML}    a SoapFault
 *   {"error": {"type", "message"}, "sent": XML}              anything else
 */

/** A normalized JSON value as SoapClient takes it: base64Binary as bytes (the part or member named data). */
function toPhp($value, $name = null)
{
    if ($name === 'data' && is_string($value)) {
        return base64_decode($value, true);
    }
    if (is_array($value)) {
        $out = [];
        foreach ($value as $key => $item) {
            $out[$key] = toPhp($item, is_string($key) ? $key : null);
        }
        return $out;
    }
    return $value;
}

/** What SoapClient decoded, normalized: objects as maps, base64Binary as Base64 text, dateTime in UTC. */
function normalized($value, $name = null)
{
    if ($name === 'data' && is_string($value)) {
        return base64_encode($value);
    }
    if ($name === 'when' && is_string($value)) {
        return gmdate('Y-m-d\TH:i:s\Z', strtotime($value));
    }
    if (is_object($value)) {
        $out = new stdClass();
        foreach (get_object_vars($value) as $key => $field) {
            $out->$key = normalized($field, $key);
        }
        return $out;
    }
    if (is_array($value)) {
        return array_map('normalized', array_values($value));
    }
    return $value;
}

$request = json_decode(file_get_contents('php://stdin'), true, 512, JSON_THROW_ON_ERROR);
$client = new SoapClient($request['wsdl'], [
    'soap_version' => SOAP_1_1,
    'cache_wsdl' => WSDL_CACHE_NONE,
    'exceptions' => true,
    'trace' => true,
    'connection_timeout' => 10,
]);

$results = [];
foreach ($request['calls'] as $call) {
    try {
        $args = [];
        foreach ($call['args'] as $name => $value) {
            $args[] = toPhp($value, $name);
        }
        $answer = $client->__soapCall($call['op'], $args);
        $results[] = ['ok' => normalized($answer), 'sent' => $client->__getLastRequest()];
    } catch (SoapFault $fault) {
        $detail = isset($fault->detail) ? $fault->detail : null;
        if (is_object($detail) && count(get_object_vars($detail)) === 1) {
            // SoapClient gives the detail's one element (the fault part) as a member named by the element.
            $detail = array_values(get_object_vars($detail))[0];
        }
        if ($detail instanceof SoapVar) {
            $detail = $detail->enc_value;
        }
        $results[] = [
            'fault' => ['code' => $fault->faultcode, 'message' => $fault->faultstring, 'detail' => normalized($detail)],
            'sent' => $client->__getLastRequest(),
        ];
    } catch (Throwable $error) {
        $results[] = ['error' => ['type' => get_class($error), 'message' => $error->getMessage()], 'sent' => $client->__getLastRequest()];
    }
}
echo json_encode(['client' => 'php ' . PHP_VERSION, 'results' => $results], JSON_THROW_ON_ERROR | JSON_UNESCAPED_UNICODE | JSON_PRESERVE_ZERO_FRACTION);
