// simt seed 1 dim 1 global 200 1 local 100 1
// tree: { s2.0.0.0 e0.0.0.0.0.2 { s1.0.0.0 e4.9.0.0.0.0 e4.4.0.0.0.0 e4.0.0.0.0.0 e3.4.0.0.0.0 e2.0.0.0.0.0 - e0.0.0.0.0.3 - e0.0.0.0.0.3 - { s0.0.1.0 e5.0.1.4.0.0 e4.2.0.0.0.0 e0.0.0.0.0.4294967293 e4.2.0.0.0.0 e2.0.0.0.0.0 e2.0.0.0.0.0 - - - - { } { } s4.0.0.0 - { } { } } { } } { } }
// A sub-group function in a block that leaves a loop (break) runs with the
// lanes that take that exit in that iteration: lanes 3, 7, 11, 15 leave in
// iteration 0 (min 0), lanes 2, 6, 10, 14 in iteration 1 (min -3).
