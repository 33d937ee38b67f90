# judge audit: the Perl probe program, the mode read from stdin (see judge/audit/).
# cpu MS | mem MB | sleep MS
use strict;
use warnings;
use Time::HiRes qw(clock_gettime CLOCK_PROCESS_CPUTIME_ID usleep);

# times() counts 10 ms clock ticks; Time::HiRes (core Perl) reads the kernel's own clock.
sub process_cpu_ms { return clock_gettime(CLOCK_PROCESS_CPUTIME_ID) * 1e3; }

# Spins until the process's own CPU clock reaches ms: whatever the speed of the CPU, it has
# then used at least ms of CPU time. The clock is read every 1000 rounds, about 0.1 ms.
sub spin_until {
    my ($ms) = @_;
    my $x = 7;
    while (process_cpu_ms() < $ms) {
        $x = ($x * 1103515245 + 12345) & 0xFFFFFFFF for 1 .. 1000;
    }
    return $x;
}

my @words = split ' ', do { local $/; <STDIN> };
my $arg = $words[1] // 0;
if ($words[0] eq "cpu") {
    spin_until($arg);
    printf("ok\nprocess_cpu_ms %.3f\n", process_cpu_ms());
} elsif ($words[0] eq "mem") {
    my $size = int($arg * 1048576);
    my $block = "\x01" x $size;    # written: every page touched
    exit 3 if $size && ord(substr($block, $size >> 1, 1)) != 1;
    print "ok\n";
} elsif ($words[0] eq "sleep") {
    usleep($arg * 1000);
    print "ok\n";
} else {
    exit 2;
}
