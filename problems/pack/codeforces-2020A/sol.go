package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	var t int
	fmt.Fscan(in, &t)
	for ; t > 0; t-- {
		var n, k int64
		fmt.Fscan(in, &n, &k)
		if k == 1 {
			fmt.Fprintln(out, n)
			continue
		}
		var ops int64
		for n > 0 {
			ops += n % k
			n /= k
		}
		fmt.Fprintln(out, ops)
	}
}
