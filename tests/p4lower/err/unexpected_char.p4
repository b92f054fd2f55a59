#include <v1model.p4>
const bit<8> X = 1 $ 2;
