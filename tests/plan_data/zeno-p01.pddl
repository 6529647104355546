(define (problem ZTRAVEL-1-3)
  (:domain zenotravel-strips)
  (:objects plane1 - aircraft
            person1 person2 person3 - person
            city0 city1 city2 - city
            fl0 fl1 fl2 - flevel)
  (:init (at plane1 city0) (fuel-level plane1 fl1)
         (at person1 city0) (at person2 city1) (at person3 city2)
         (next fl0 fl1) (next fl1 fl2))
  (:goal (and (at person1 city2) (at person2 city0) (at person3 city1))))
