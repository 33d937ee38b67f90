#lang racket/base

(define (operations n k)
  (if (= k 1)
      n
      (let loop ([n n] [ops 0])
        (if (zero? n) ops (loop (quotient n k) (+ ops (remainder n k)))))))

(define t (read))
(for ([_ (in-range t)])
  (define n (read))
  (define k (read))
  (write (operations n k))
  (newline))
