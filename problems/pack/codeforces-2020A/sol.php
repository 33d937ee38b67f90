<?php
$data = preg_split('/\s+/', trim(stream_get_contents(STDIN)));
$t = intval($data[0]);
$out = [];
for ($i = 0; $i < $t; $i++) {
    $n = intval($data[1 + 2 * $i]);
    $k = intval($data[2 + 2 * $i]);
    if ($k == 1) { $out[] = $n; continue; }
    $ops = 0;
    while ($n > 0) { $ops += $n % $k; $n = intdiv($n, $k); }
    $out[] = $ops;
}
echo implode("\n", $out), "\n";
