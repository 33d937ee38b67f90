// judge audit: the Go probe program, the mode read from stdin (see judge/audit/).
// cpu MS | mem MB | sleep MS
package main

import (
	"fmt"
	"os"
	"syscall"
	"time"
)

var sink uint64

// The process's own CPU time (every thread of the runtime's, user and system).
func processCPUMs() float64 {
	var usage syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &usage)
	return float64(usage.Utime.Nano()+usage.Stime.Nano()) / 1e6
}

// Spins until the process's own CPU clock reaches ms: whatever the speed of the CPU, it has
// then used at least ms of CPU time. The clock is read every 32768 rounds of xorshift, ~0.1 ms.
func spinUntil(ms float64) uint64 {
	x := uint64(7)
	for processCPUMs() < ms {
		for i := 0; i < 32768; i++ {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
		}
	}
	return x
}

func main() {
	var mode string
	var arg float64
	fmt.Scan(&mode, &arg)
	switch mode {
	case "cpu":
		sink = spinUntil(arg)
		fmt.Printf("ok\nprocess_cpu_ms %.3f\n", processCPUMs())
		return
	case "mem":
		size := int(arg * 1048576)
		block := make([]byte, size)
		for i := 0; i < size; i += 4096 { // every page touched
			block[i] = 1
		}
		if size > 0 {
			sink = uint64(block[size/2])
		}
	case "sleep":
		time.Sleep(time.Duration(arg) * time.Millisecond)
	default:
		os.Exit(2)
	}
	fmt.Println("ok")
}
