#include <v1model.p4>
const int HUGE = 0x1_0000_0000_0000_0000_0000_0000_0000_0000;
