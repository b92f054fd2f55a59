#include <v1model.p4>
header h_t { bit<8> a; }
struct h_t { bit<8> b; }
