#include <v1model.p4>
header h_t {
	bit<8> a
	bit<8> b;
}
