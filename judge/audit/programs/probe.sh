# judge audit: the Bash probe program, the mode read from stdin (see judge/audit/).
# cpu MS | mem MB | sleep MS

# Bash has no CPU clock of its own but reads the kernel's without forking: fields 14 and 15 of
# /proc/self/stat are the process's user and system time, in 10 ms clock ticks (rounded down).
process_cpu_ms() {
    local stat
    read -r -a stat < /proc/$$/stat
    cpu_ms=$(( (stat[13] + stat[14]) * 10 ))
}

read -r mode arg
case $mode in
cpu)
    # Spins until the process's own CPU clock reaches ms: whatever the speed of the CPU, it has
    # then used at least ms of CPU time. The clock is read every 100 rounds, about 0.5 ms.
    target=${arg%.*}
    x=7
    process_cpu_ms
    while (( cpu_ms < target )); do
        for (( i = 0; i < 100; i++ )); do (( x = (x * 1103515245 + 12345) & 0xFFFFFFFF )); done
        process_cpu_ms
    done
    printf 'ok\nprocess_cpu_ms %d\n' "$cpu_ms"
    ;;
mem)
    # MB has up to 3 decimals, and Bash only integers: bytes = MB * 1000 * 1048576 / 1000.
    whole=${arg%%.*} fraction=${arg#"$whole"}
    fraction=${fraction#.}000
    size=$(( (10#${whole:-0} * 1000 + 10#${fraction:0:3}) * 1048576 / 1000 ))
    # Each assignment copies the string (and printf -v its buffer): one whole-size string would
    # peak at twice its size. Copies of a 1 MiB chunk, one element each, peak at the size plus
    # the chunk and an expansion's temporary copy, which `mem 0` (the baseline) makes too.
    blocks=() n=0
    printf -v chunk '%*s' 1048576 ''
    : "$chunk"
    while (( size >= 1048576 )); do
        blocks[n++]=$chunk
        (( size -= 1048576 ))
    done
    printf -v tail '%*s' "$size" ''
    echo ok
    ;;
sleep)
    sleep "$(( arg / 1000 )).$(( arg % 1000 / 100 ))"
    echo ok
    ;;
*)
    exit 2
    ;;
esac
