#lang racket/base
(require ffi/unsafe)
;; judge audit: the Racket probe program, the mode read from stdin (see judge/audit/).
;; cpu MS | mem MB | sleep MS

;; The process's own CPU time (user and system), in whole milliseconds, rounded down.
(define (process-cpu-ms) (current-process-milliseconds))

;; Spins until the process's own CPU clock reaches ms: whatever the speed of the CPU, it has then
;; used at least ms of CPU time. The clock is read every 1000 rounds, about 0.01 ms.
(define (spin-until ms)
  (let loop ([x 7])
    (if (< (process-cpu-ms) ms)
        (loop (for/fold ([x x]) ([_ (in-range 1000)])
                (bitwise-and (+ (* x 1103515245) 12345) #xFFFFFFFF)))
        x)))

(define mode (read))
(define arg (let ([v (read)]) (if (real? v) v 0)))
(case mode
  [(cpu)
   (spin-until arg)
   (printf "ok\nprocess_cpu_ms ~a\n" (process-cpu-ms))]
  [(mem)
   ;; C's malloc, outside the garbage collected heap, whose own bookkeeping grows with what it
   ;; holds (make-bytes of 50/100/200 MiB peaks 2.5/3.5/4.5 MiB above the size).
   (define size (inexact->exact (floor (* arg 1048576))))
   (when (> size 0)
     (define block (malloc size 'raw))
     (memset block 1 size)   ; every page touched
     (unless (= (ptr-ref block _byte (quotient size 2)) 1) (exit 3)))
   (printf "ok\n")]
  [(sleep)
   (sleep (/ arg 1000.0))
   (printf "ok\n")]
  [else (exit 2)])
