#include <v1model.p4>
const bit<8> A = 10;
const bit<8> B = A / (A - 10);
