(define (problem dead-end) (:domain trap)
  (:init (at-start))
  (:goal (and (at-door) (have-key))))
