; Leaving the start room either takes the key or reaches the door, never both.
(define (domain trap)
  (:requirements :strips)
  (:predicates (at-start) (at-door) (have-key) (open))
  (:action walk-to-door
    :parameters ()
    :precondition (at-start)
    :effect (and (at-door) (not (at-start))))
  (:action take-key
    :parameters ()
    :precondition (at-start)
    :effect (and (have-key) (not (at-start)))))
