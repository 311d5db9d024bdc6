<?php
/**
 * Calls the service through PHP's SoapClient (ext-soap), built from the WSDL
 * the service serves.
 *
 * Reads one JSON object on stdin:
 *   {"wsdl": URL, "soapVersion": "1.1" | "1.2", "calls": [{"op": "Pair" | "ValidatePin", "args": {...}}, ...],
 *    "cafile": PATH (optional: over HTTPS, the CA to trust, as PHP users give a private CA)}
 * and prints {"results": [...]} on stdout, one entry per call:
 *   {"ok": value}                          Pair: {"ManualSetupCode", "Html"}; ValidatePin: true/false
 *   {"fault": {"type", "code", "message"}} a SoapFault
 *   {"error": {"type", "message"}}         anything else
 */

$request = json_decode(file_get_contents('php://stdin'), true, 512, JSON_THROW_ON_ERROR);
$options = [
    'soap_version' => $request['soapVersion'] === '1.2' ? SOAP_1_2 : SOAP_1_1,
    'cache_wsdl' => WSDL_CACHE_NONE,
    'exceptions' => true,
    'connection_timeout' => 10,
];
if (isset($request['cafile'])) {
    // The stream context serves both the WSDL's download and every call.
    $options['stream_context'] = stream_context_create([
        'ssl' => ['cafile' => $request['cafile'], 'verify_peer' => true, 'verify_peer_name' => true],
    ]);
}
try {
    $client = new SoapClient($request['wsdl'], $options);
} catch (SoapFault $fault) {
    // The WSDL could not be loaded (an untrusted certificate, say): PHP's own warnings, on stderr, say why.
    fwrite(STDERR, "SoapClient could not load the WSDL: {$fault->getMessage()}\n");
    exit(1);
}

$results = [];
foreach ($request['calls'] as $call) {
    try {
        $answer = $client->__soapCall($call['op'], [$call['args']]);
        $value = $call['op'] === 'Pair' ? (array) $answer->PairResult : $answer->ValidatePinResult;
        $results[] = ['ok' => $value];
    } catch (SoapFault $fault) {
        $results[] = [
            'fault' => ['type' => get_class($fault), 'code' => $fault->faultcode, 'message' => $fault->faultstring],
        ];
    } catch (Throwable $error) {
        $results[] = ['error' => ['type' => get_class($error), 'message' => $error->getMessage()]];
    }
}
echo json_encode(['php' => PHP_VERSION, 'results' => $results], JSON_THROW_ON_ERROR | JSON_UNESCAPED_UNICODE);
