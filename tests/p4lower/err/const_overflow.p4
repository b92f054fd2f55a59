#include <v1model.p4>
const int BIG = 1 << 130;
