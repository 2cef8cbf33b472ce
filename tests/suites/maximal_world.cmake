# a model in maximal coordinates inside the world's step, with its geometry and the contacts
# (src/couple/maximal.c, src/sim/bodies.c's geometry body, broad.c's filter; issue 14)
sn_add_suite(test_maximal_world heapcount.c)
