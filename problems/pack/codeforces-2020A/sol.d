import std.stdio;

void main() {
    int t;
    readf(" %d", &t);
    foreach (_; 0 .. t) {
        long n, k;
        readf(" %d %d", &n, &k);
        long ops = 0;
        if (k == 1) {
            ops = n;
        } else {
            while (n > 0) {
                ops += n % k;
                n /= k;
            }
        }
        writeln(ops);
    }
}
