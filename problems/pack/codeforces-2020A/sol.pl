use strict;
use warnings;

local $/;
my @data = split ' ', <STDIN>;
my $t = shift @data;
my @out;
for (1 .. $t) {
    my ($n, $k) = splice(@data, 0, 2);
    if ($k == 1) { push @out, $n; next; }
    my $ops = 0;
    while ($n > 0) { $ops += $n % $k; $n = int($n / $k); }
    push @out, $ops;
}
print join("\n", @out), "\n";
