(define (problem unreachable) (:domain trap)
  (:init (at-start))
  (:goal (open)))
