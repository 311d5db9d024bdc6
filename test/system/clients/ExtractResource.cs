// Writes a resource embedded in an assembly of Mono's GAC to standard output:
// MicrosoftAjax.js, Microsoft's AJAX library, is one of System.Web.Extensions
// (Debian's libmono-system-web-extensions4.0-cil, brought by mono-devel), and
// is not on npm.
//
// Usage: mono ExtractResource.exe "ASSEMBLY FULL NAME" RESOURCE > file
using System;
using System.Reflection;

static class ExtractResource
{
    static int Main(string[] args)
    {
        var assembly = Assembly.Load(args[0]);
        using (var resource = assembly.GetManifestResourceStream(args[1]))
        {
            if (resource == null)
            {
                Console.Error.WriteLine(args[0] + " has no resource " + args[1]);
                return 1;
            }
            using (var output = Console.OpenStandardOutput()) resource.CopyTo(output);
        }
        return 0;
    }
}
