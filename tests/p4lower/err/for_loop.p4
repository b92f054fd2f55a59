#include <v1model.p4>
control C(inout standard_metadata_t sm) {
	apply {
		for (bit<8> i = 0; i < 4; i = i + 1) { }
	}
}
