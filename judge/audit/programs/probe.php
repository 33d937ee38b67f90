<?php
// judge audit: the PHP probe program, the mode read from stdin (see judge/audit/).
// cpu MS | mem MB | sleep MS

// The process's own CPU time, user and system, in microseconds.
function process_cpu_ms() {
    $usage = getrusage();
    return ($usage["ru_utime.tv_sec"] + $usage["ru_stime.tv_sec"]) * 1e3
        + ($usage["ru_utime.tv_usec"] + $usage["ru_stime.tv_usec"]) / 1e3;
}

// Spins until the process's own CPU clock reaches ms: whatever the speed of the CPU, it has
// then used at least ms of CPU time. The clock is read every 1000 rounds, about 0.1 ms.
function spin_until($ms) {
    $x = 7;
    while (process_cpu_ms() < $ms) {
        for ($i = 0; $i < 1000; $i++) {
            $x = ($x * 1103515245 + 12345) & 0xFFFFFFFF;
        }
    }
    return $x;
}

$words = preg_split('/\s+/', trim(stream_get_contents(STDIN)));
$arg = isset($words[1]) ? (float)$words[1] : 0.0;
if ($words[0] === "cpu") {
    spin_until($arg);
    printf("ok\nprocess_cpu_ms %.3f\n", process_cpu_ms());
} elseif ($words[0] === "mem") {
    // PHP's own memory_limit would stop the program first; the judge's limit is under test.
    ini_set("memory_limit", "-1");
    $size = (int)($arg * 1048576);
    $block = str_repeat("\x01", $size);   // written: every page touched
    if ($size && $block[intdiv($size, 2)] !== "\x01") exit(3);
    echo "ok\n";
} elseif ($words[0] === "sleep") {
    usleep((int)$arg * 1000);
    echo "ok\n";
} else {
    exit(2);
}
