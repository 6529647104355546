; tablero evolved NPC (primitive table v1); seed 1; fitness 73.8846
; GP: GpParams { population: 100, generations: 30, tournament: 3, elitism: 3, crossover_rate: 0.8, mutation_rate: 0.2, min_depth: 2, max_depth: 6, depth_cap: 8 }
; simulator: SimParams { turns: 100, player_hp: 3, npc_hp: 3, detection: 5, heal_turns: 4 }
(npc v1
  (patrol (SiJugadorDetectado (SiJugador GirarDerecha CambiarEstado) (SiBloqueado GirarIzquierda Avanzar)))
  (attack (SiJugadorEnRango (Bloquear 3) (ProgN2 (ProgN2 (ProgN2 Acercar Acercar) (ProgN2 Acercar (Bloquear 3))) (ProgN2 Atacar Atacar)))))
