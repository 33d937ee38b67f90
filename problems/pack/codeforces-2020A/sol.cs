using System;
using System.IO;
using System.Text;

class Program {
    static void Main() {
        var tokens = Console.In.ReadToEnd().Split((char[])null, StringSplitOptions.RemoveEmptyEntries);
        int t = int.Parse(tokens[0]);
        var output = new StringBuilder();
        for (int i = 0; i < t; i++) {
            long n = long.Parse(tokens[1 + 2 * i]);
            long k = long.Parse(tokens[2 + 2 * i]);
            long ops = 0;
            if (k == 1) ops = n; else while (n > 0) { ops += n % k; n /= k; }
            output.Append(ops).Append('\n');
        }
        Console.Write(output);
    }
}
