// .NET (Mono) through a proxy class that `wsdl` generated from the WSDL of a
// service with the GenerateSecret operation added (test/system/add-operation-clients.test.ts;
// any protocol: SOAP, SOAP12, HttpGet, HttpPost; the class is AuthenticatorAPI in each),
// at the address the WSDL gives: the answer's fields as the proxy typed them.
//
// Usage: mono GenerateSecretProxyClient.exe CALL...
// Each CALL: "LENGTH" or "LENGTH:ALPHABET"
// One line of stdout per call, tab-separated:
//   ok  SECRET_TYPE  SECRET  CREATED_TYPE  CREATED_KIND  CREATED_UTC(ISO 8601)  WARNINGS_TYPE  WARNING|WARNING...
// or "error TYPE: MESSAGE".
using System;
using System.Globalization;

static class GenerateSecretProxyClient
{
    static string TypeOf(object value)
    {
        return value == null ? "null" : value.GetType().FullName;
    }

    static int Main(string[] args)
    {
        var api = new AuthenticatorAPI();
        api.Timeout = 20000;
        foreach (var call in args)
        {
            var parts = call.Split(new[] { ':' }, 2);
            try
            {
                var info = api.GenerateSecret(int.Parse(parts[0], CultureInfo.InvariantCulture), parts.Length > 1 ? parts[1] : null);
                Console.WriteLine(string.Join("\t", new[] {
                    "ok",
                    TypeOf(info.Secret), info.Secret,
                    TypeOf(info.CreatedUtc), info.CreatedUtc.Kind.ToString(),
                    info.CreatedUtc.ToUniversalTime().ToString("o", CultureInfo.InvariantCulture),
                    TypeOf(info.Warnings), info.Warnings == null ? "" : string.Join("|", info.Warnings),
                }));
            }
            catch (Exception error)
            {
                Console.WriteLine("error " + error.GetType().Name + ": " + error.Message.Replace('\n', ' '));
            }
        }
        return 0;
    }
}
