// .NET (Mono) through a proxy class that `wsdl` generated from a served WSDL,
// for any contract and protocol (SOAP, SOAP12, HttpGet, HttpPost): the proxy
// is the assembly's one WebClientProtocol class; each call names a method and
// its arguments as text, converted to the parameter types the proxy declares
// (string, int, long, double, decimal, bool, an enum), and the answer is
// printed with the .NET type the proxy decoded it into.
//
// Usage: mono ReflectingProxyClient.exe CALL...
// Each CALL: METHOD or METHOD|ARG|ARG... ("|" separates; arguments in invariant culture)
// One line of stdout per call, tab-separated: ok TYPE VALUE (void: "ok void -"),
// or "error TYPE: MESSAGE".
using System;
using System.Globalization;
using System.Linq;
using System.Reflection;
using System.Web.Services.Protocols;

static class ReflectingProxyClient
{
    static object Convert(string text, Type type)
    {
        if (type == typeof(string)) return text;
        if (type.IsEnum) return Enum.Parse(type, text);
        return System.Convert.ChangeType(text, type, CultureInfo.InvariantCulture);
    }

    static string Show(object value)
    {
        if (value == null) return "null";
        if (value is double) return ((double)value).ToString("R", CultureInfo.InvariantCulture);
        if (value is IFormattable) return ((IFormattable)value).ToString(null, CultureInfo.InvariantCulture);
        return value.ToString();
    }

    static int Main(string[] args)
    {
        var proxyType = Assembly.GetExecutingAssembly().GetTypes().Single(t => typeof(WebClientProtocol).IsAssignableFrom(t) && !t.IsAbstract);
        var proxy = (WebClientProtocol)Activator.CreateInstance(proxyType);
        proxy.Timeout = 20000;
        foreach (var call in args)
        {
            var parts = call.Split('|');
            try
            {
                var method = proxyType.GetMethods(BindingFlags.Public | BindingFlags.Instance | BindingFlags.DeclaredOnly)
                    .Single(m => m.Name == parts[0] && m.GetParameters().Length == parts.Length - 1);
                var parameters = method.GetParameters();
                var values = parameters.Select((p, i) => Convert(parts[i + 1], p.ParameterType)).ToArray();
                var result = method.Invoke(proxy, values);
                Console.WriteLine(method.ReturnType == typeof(void)
                    ? "ok\tvoid\t-"
                    : "ok\t" + (result == null ? method.ReturnType.FullName : result.GetType().FullName) + "\t" + Show(result));
            }
            catch (Exception error)
            {
                var inner = error is TargetInvocationException && error.InnerException != null ? error.InnerException : error;
                Console.WriteLine("error\t" + inner.GetType().Name + ": " + inner.Message.Replace('\n', ' '));
            }
        }
        return 0;
    }
}
